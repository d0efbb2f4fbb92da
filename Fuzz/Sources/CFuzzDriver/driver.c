// The declaration in CFuzzDriver.h is all this target provides; SwiftPM needs a source file.
#include "CFuzzDriver.h"
