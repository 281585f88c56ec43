// Input of precompiled-header.test: the header a unit's precompiled header
// is built from. The macros it expands and defines were expanded where the
// plugin's watch of the preprocessor did not see them.
#include <assert.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

#define PUBLISH(x, v) CMM_STORE_SHARED(x, v)
#define PEEK(x) CMM_LOAD_SHARED(x)
