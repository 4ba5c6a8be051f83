import Testing
import XorgTestSupport
