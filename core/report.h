// Reports of a run, from the results database: a text summary for people,
// JSON for programs, CSV (one row per task and configuration) for sheets.
//
//   std::cout << FormatTextReport(info, results);
#ifndef ARENA_CORE_REPORT_H_
#define ARENA_CORE_REPORT_H_

#include <string>
#include <vector>

#include "core/results_store.h"
#include "core/scoring.h"

namespace arena {

std::string FormatTextReport(const RunInfo& info, const std::vector<TaskResult>& results);
Json ReportJson(const RunInfo& info, const std::vector<TaskResult>& results);
std::string ReportCsv(const RunInfo& info, const std::vector<TaskResult>& results);

// `s` padded with spaces to `width` (at least one space after it).
std::string PadRight(const std::string& s, size_t width);
// `v` with `digits` decimals, or "-" when absent.
std::string FormatFixed(const std::optional<double>& v, int digits);
// "1.23x", or "-" when absent.
std::string FormatSpeedup(const std::optional<double>& v);

}  // namespace arena

#endif  // ARENA_CORE_REPORT_H_
