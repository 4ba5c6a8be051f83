#ifndef GESTUREBRIDGE_CYAML_SHIM_H
#define GESTUREBRIDGE_CYAML_SHIM_H

// libyaml's parser (Debian's libyaml-dev): the config is read through its event API.
#include <yaml.h>

#endif
