#include "core/agent.h"

namespace arena {

Json AgentOutcome::ToJson() const {
  return {{"ok", ok}, {"detail", detail}, {"transcript", transcript}, {"wall_s", wall_s},
          {"exit_code", exit_code}, {"feedback_calls", feedback_calls}, {"usage", usage}};
}

}  // namespace arena
