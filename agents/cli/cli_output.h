// Reading what an agent CLI printed: the tokens and cost it reports, whether
// it says it is not logged in, and whether its final event reports an error.
//
// Everything here is best effort and never fails: a line that is not the
// expected JSON, a missing field or a field of the wrong type is skipped.
//
//   Json usage = ParseUsage(UsageFormat::kResultEvent, result.out, result.err, "");
//   // {"input_tokens": 1200, "output_tokens": 340, "cost_usd": 0.0123, ...}
//   if (auto why = FindLoggedOutMessage(spec.logged_out_markers, out, err)) ...
#ifndef ARENA_AGENTS_CLI_CLI_OUTPUT_H_
#define ARENA_AGENTS_CLI_CLI_OUTPUT_H_

#include <optional>
#include <string>
#include <vector>

#include "agents/cli/cli_spec.h"
#include "core/task.h"  // Json

namespace arena {

// Tokens and cost under the arena's names (input_tokens, output_tokens,
// cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_usd, turns,
// api_calls), only those the CLI reported; {} when it reported none.
// `output_file` is the text of the CLI's own output file (kTrajectoryFile).
Json ParseUsage(UsageFormat format, const std::string& out, const std::string& err,
                const std::string& output_file);

// The first line of the CLI's own messages (stderr, plain stdout lines, and
// result/error events of a JSON stream, never the model's streamed text)
// that contains one of `markers` (lower case), as one readable line.
std::optional<std::string> FindLoggedOutMessage(const std::vector<std::string>& markers,
                                                const std::string& out, const std::string& err);

// The text of a final {"type":"result","is_error":true} event, if the stream
// ended with one.
std::optional<std::string> FindReportedError(const std::string& out);

}  // namespace arena

#endif  // ARENA_AGENTS_CLI_CLI_OUTPUT_H_
