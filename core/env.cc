#include "core/env.h"

#include <cstdlib>
#include <cstring>

namespace arena {

bool SwitchOn(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr || std::strcmp(v, "0") != 0;
}

}  // namespace arena
