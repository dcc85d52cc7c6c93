// The noop agent submits the baseline unchanged. Evaluating it measures the
// arena itself: every speedup should be 1.00 within the timing noise (the
// A-versus-A figure), and every task must come out correct.
#include "core/agent.h"

namespace arena {
namespace {

class NoopAgent : public AgentAdapter {
 public:
  Result<AgentOutcome> Run(const AgentRequest& request) override {
    AgentOutcome out;
    out.transcript = "noop: submitted the baseline of " + request.task->id + " unchanged\n";
    return out;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_AGENT("noop", arena::NoopAgent);
