// Switches read from the environment. A switch is on unless its variable
// is "0": unset, empty or any other value leaves the feature on, so that
// a newcomer's run gets what the methodology describes and a measurement
// turns one part off by name:
//
//   if (SwitchOn("ARENA_HIP_RTC")) { ... }  // ARENA_HIP_RTC=0: off
#ifndef ARENA_CORE_ENV_H_
#define ARENA_CORE_ENV_H_

namespace arena {

// False only where the variable `name` is exactly "0".
bool SwitchOn(const char* name);

}  // namespace arena

#endif  // ARENA_CORE_ENV_H_
