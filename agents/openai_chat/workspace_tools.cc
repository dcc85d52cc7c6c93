#include "agents/openai_chat/workspace_tools.h"

#include <algorithm>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

ToolResult Refused(const std::string& why) { return ToolResult{false, "error: " + why}; }

// Length of the valid UTF-8 sequence starting at text[i], or 0 if none does
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
size_t Utf8SequenceLength(const std::string& text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

Json FunctionTool(const std::string& name, const std::string& description, Json properties,
                  std::vector<std::string> required) {
  return {
      {"type", "function"},
      {"function",
       {{"name", name},
        {"description", description},
        {"parameters",
         {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}}}}}};
}

// "a/./b" -> "a/b"; empty if the path leaves its root or names the root.
std::string NormalRelative(const std::string& path) {
  std::string normal;
  std::stringstream parts(path);
  std::string part;
  while (std::getline(parts, part, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return "";
    normal += (normal.empty() ? "" : "/") + part;
  }
  return normal;
}

}  // namespace

bool IsValidUtf8(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string ReplaceInvalidUtf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

WorkspaceTools::WorkspaceTools(std::string workspace, std::vector<std::string> editable,
                               FeedbackFn feedback)
    : workspace_(std::move(workspace)), feedback_(std::move(feedback)) {
  for (const auto& rel : editable) editable_.push_back(NormalRelative(rel));
}

Json WorkspaceTools::Schemas() const {
  std::string editable_list;
  for (const auto& rel : editable_) editable_list += (editable_list.empty() ? "" : ", ") + rel;
  const Json path_property = {{"type", "string"},
                              {"description", "a path relative to the workspace"}};
  Json tools = Json::array();
  tools.push_back(FunctionTool("list_files",
                               "List the files of the workspace with their sizes, marking the "
                               "ones you may edit.",
                               Json::object(), {}));
  tools.push_back(FunctionTool("read_file", "Read a text file of the workspace.",
                               {{"path", path_property}}, {"path"}));
  tools.push_back(FunctionTool(
      "write_file",
      "Replace the whole content of an editable file. Only these may be written: " + editable_list +
          ".",
      {{"path", path_property},
       {"content", {{"type", "string"}, {"description", "the complete new content"}}}},
      {"path", "content"}));
  if (feedback_) {
    tools.push_back(FunctionTool(
        "run_feedback",
        "Compile the editable files as they are now, check them for correctness and time them "
        "on the tuning configurations; returns the report.",
        {{"configs",
          {{"type", "array"},
           {"items", {{"type", "string"}}},
           {"description", "only these configurations (names from configs.json); default all"}}},
         {"check_only",
          {{"type", "boolean"}, {"description", "compile and check without timing (faster)"}}}},
        {}));
  }
  return tools;
}

ToolResult WorkspaceTools::Call(const std::string& name, const Json& arguments) {
  if (!arguments.is_object()) return Refused("the arguments must be a JSON object");
  if (name == "list_files") return ListFilesTool();
  if (name == "read_file") return ReadFileTool(arguments);
  if (name == "write_file") return WriteFileTool(arguments);
  if (name == "run_feedback" && feedback_) return RunFeedbackTool(arguments);
  return Refused("there is no tool named '" + name + "'");
}

Result<WorkspaceTools::ConfinedPath> WorkspaceTools::Confine(const Json& arguments) const {
  auto it = arguments.find("path");
  if (it == arguments.end() || !it->is_string()) {
    return InvalidArgument("'path' (a string) is required");
  }
  const std::string path = it->get<std::string>();
  if (path.empty()) return InvalidArgument("the path is empty");
  if (path.find('\0') != std::string::npos) return InvalidArgument("the path holds a NUL byte");
  if (path.front() == '/') {
    return InvalidArgument("'" + path + "' is absolute; paths are relative to the workspace");
  }
  std::stringstream parts(path);
  std::string part;
  while (std::getline(parts, part, '/')) {
    if (part == "..") return InvalidArgument("'" + path + "' leaves the workspace ('..')");
  }
  ConfinedPath confined;
  confined.relative = NormalRelative(path);
  if (confined.relative.empty()) return InvalidArgument("'" + path + "' names no file");
  // A link anywhere along the path could lead out of the workspace, so none
  // is followed. (The model is the only writer here: nothing swaps a folder
  // for a link between this check and the use.)
  fs::path walked = workspace_;
  std::stringstream normal_parts(confined.relative);
  while (std::getline(normal_parts, part, '/')) {
    walked /= part;
    std::error_code ec;
    fs::file_status status = fs::symlink_status(walked, ec);
    if (ec || !fs::exists(status)) break;
    if (fs::is_symlink(status)) {
      return InvalidArgument("'" + path + "' goes through a symbolic link, which is not followed");
    }
  }
  confined.absolute = workspace_ / confined.relative;
  return confined;
}

bool WorkspaceTools::IsEditable(const std::string& relative) const {
  return std::find(editable_.begin(), editable_.end(), relative) != editable_.end();
}

ToolResult WorkspaceTools::ReadFileTool(const Json& arguments) const {
  auto path = Confine(arguments);
  if (!path.ok()) return Refused(path.status().message());
  std::error_code ec;
  if (!fs::exists(path->absolute, ec)) return Refused("'" + path->relative + "' does not exist");
  if (!fs::is_regular_file(path->absolute, ec)) {
    return Refused("'" + path->relative + "' is not a regular file");
  }
  const auto size = fs::file_size(path->absolute, ec);
  if (ec || size > kMaxFileBytes) {
    return Refused("'" + path->relative + "' is larger than " + std::to_string(kMaxFileBytes) +
                   " bytes");
  }
  auto text = ReadFile(path->absolute.string());
  if (!text.ok()) return Refused("cannot read '" + path->relative + "'");
  if (!IsValidUtf8(*text)) return Refused("'" + path->relative + "' is not UTF-8 text");
  return ToolResult{true, *text};
}

ToolResult WorkspaceTools::WriteFileTool(const Json& arguments) const {
  auto path = Confine(arguments);
  if (!path.ok()) return Refused(path.status().message());
  auto content = arguments.find("content");
  if (content == arguments.end() || !content->is_string()) {
    return Refused("'content' (a string) is required");
  }
  if (!IsEditable(path->relative)) {
    std::string allowed;
    for (const auto& rel : editable_) allowed += (allowed.empty() ? "" : ", ") + rel;
    return Refused("'" + path->relative +
                   "' is not editable; only these files may be written: " + allowed);
  }
  const std::string& text = content->get_ref<const std::string&>();
  if (text.size() > kMaxFileBytes) {
    return Refused("the content is larger than " + std::to_string(kMaxFileBytes) + " bytes");
  }
  std::error_code ec;
  if (fs::exists(path->absolute, ec) && !fs::is_regular_file(path->absolute, ec)) {
    return Refused("'" + path->relative + "' is not a regular file");
  }
  Status written = WriteFileAtomic(path->absolute.string(), text);
  if (!written.ok()) return Refused("cannot write '" + path->relative + "'");
  return ToolResult{true, "wrote " + std::to_string(text.size()) + " bytes to " + path->relative};
}

ToolResult WorkspaceTools::ListFilesTool() const {
  std::vector<std::string> lines;
  std::error_code ec;
  // Links are listed but not entered: the directory iterator follows none.
  for (fs::recursive_directory_iterator
           it(workspace_, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(workspace_);
    std::error_code status_ec;
    if (it->is_symlink(status_ec)) {
      lines.push_back(relative.string() + "  (symbolic link, not accessible)");
    } else if (it->is_regular_file(status_ec)) {
      std::string line =
          relative.string() + "  (" + std::to_string(it->file_size(status_ec)) + " bytes";
      if (IsEditable(relative.string())) line += ", editable";
      lines.push_back(line + ")");
    }
  }
  if (ec) return Refused("cannot list the workspace: " + ec.message());
  std::sort(lines.begin(), lines.end());
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return ToolResult{true, text.empty() ? "(the workspace is empty)\n" : text};
}

ToolResult WorkspaceTools::RunFeedbackTool(const Json& arguments) {
  Result<FeedbackOptions> options = FeedbackOptions::FromJson(arguments);
  if (!options.ok()) return Refused(options.status().message());
  ++feedback_calls_;
  Result<FeedbackReport> report = feedback_(*options);
  if (!report.ok()) return Refused("feedback failed: " + report.status().ToString());
  if (!report->text.empty()) return ToolResult{true, ReplaceInvalidUtf8(report->text)};
  // A report without text still says what happened.
  std::string text = std::string("compiled: ") + (report->compiled ? "yes" : "no") +
                     "\ncorrect: " + (report->correct ? "yes" : "no") + "\n";
  if (report->speedup) text += "speedup: " + std::to_string(*report->speedup) + "\n";
  return ToolResult{true, text};
}

}  // namespace arena
