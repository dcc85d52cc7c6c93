#include "core/task_file_guard.h"

#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

namespace arena {
namespace fs = std::filesystem;

namespace {

std::string At(const std::string& path, int line, int column) {
  return path + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// The position of the first byte that is not UTF-8, or -1.
long FirstInvalidUtf8(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return static_cast<long>(i);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return static_cast<long>(i);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((len == 2 && c < 0xC2) || (len == 3 && c == 0xE0 && p[i + 1] < 0xA0) ||
        (len == 3 && c == 0xED && p[i + 1] >= 0xA0) || (len == 4 && c == 0xF0 && p[i + 1] < 0x90) ||
        (len == 4 && (c > 0xF4 || (c == 0xF4 && p[i + 1] >= 0x90)))) {
      return static_cast<long>(i);
    }
    i += len;
  }
  return -1;
}

struct Refusal {
  YAML::Mark mark;
  std::string message;
};

// Walks the YAML events: refuses anchors and aliases, deep nesting and a key
// given twice in one mapping.
class StructureCheck : public YAML::EventHandler {
 public:
  // yaml-cpp can return document after empty document without reading on
  // (a stray ',' at the top level): bounded, that is an error, not a hang.
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > kMaxTaskFileDocuments) {
      throw Refusal{mark, "more than " + std::to_string(kMaxTaskFileDocuments) + " YAML documents"};
    }
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node(mark, anchor, "");
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Refusal{mark, "YAML aliases are not allowed in task files (write the value out)"};
  }
  void OnAnchor(const YAML::Mark& mark, const std::string&) override {
    throw Refusal{mark, "YAML anchors are not allowed in task files"};
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    Node(mark, anchor, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Node(mark, anchor, "");
    Open(mark, false);
  }
  void OnSequenceEnd() override { frames_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Node(mark, anchor, "");
    Open(mark, true);
  }
  void OnMapEnd() override { frames_.pop_back(); }

 private:
  struct Frame {
    bool map;
    size_t items = 0;
    std::set<std::string> keys;
  };

  void Open(const YAML::Mark& mark, bool map) {
    if (static_cast<int>(frames_.size()) >= kMaxTaskFileDepth) {
      throw Refusal{mark, "nested deeper than " + std::to_string(kMaxTaskFileDepth) + " levels"};
    }
    frames_.push_back(Frame{map});
  }

  // A node in the current container: in a mapping, every other one is a key.
  void Node(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string& scalar) {
    if (anchor != YAML::NullAnchor) {
      throw Refusal{mark, "YAML anchors are not allowed in task files"};
    }
    if (frames_.empty()) return;
    Frame& f = frames_.back();
    const bool is_key = f.map && f.items % 2 == 0;
    ++f.items;
    if (is_key && !f.keys.insert(scalar).second) {
      throw Refusal{mark, "key '" + scalar + "' is given twice in this mapping"};
    }
  }

  std::vector<Frame> frames_;
  int documents_ = 0;
};

}  // namespace

Status CheckTaskFileText(const std::string& path, const std::string& text) {
  if (text.size() > kMaxTaskFileBytes) {
    return InvalidArgument(path + ": larger than " + std::to_string(kMaxTaskFileBytes) +
                           " bytes; a task file is a page of YAML");
  }
  long bad = FirstInvalidUtf8(text);
  size_t nul = text.find('\0');
  if (bad >= 0 || nul != std::string::npos) {
    size_t at = bad >= 0 ? static_cast<size_t>(bad) : nul;
    if (nul != std::string::npos && nul < at) at = nul;
    int line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return InvalidArgument(At(path, line, column) + ": " +
                           (at == nul ? "a NUL byte" : "bytes that are not UTF-8") +
                           " (task files are UTF-8 text)");
  }
  std::istringstream in(text);
  StructureCheck check;
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(check)) {
    }
  } catch (const Refusal& r) {
    return InvalidArgument(At(path, r.mark.line + 1, r.mark.column + 1) + ": " + r.message);
  } catch (const YAML::Exception& e) {
    std::string where = e.mark.is_null() ? path : At(path, e.mark.line + 1, e.mark.column + 1);
    return InvalidArgument(where + ": " + e.msg);
  }
  return OkStatus();
}

Status CheckTaskFolder(const std::string& dir, const std::string& task_id,
                       const std::vector<std::string>& files) {
  std::error_code ec;
  int seen = 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) return InvalidArgument(dir + ": " + ec.message());
    if (++seen > 10000) return InvalidArgument(dir + ": more than 10000 entries in a task folder");
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_symlink(st) || fs::is_directory(st) || fs::is_regular_file(st)) continue;
    return InvalidArgument(it->path().string() +
                           ": not a regular file or folder (a device, pipe or socket)");
  }
  for (const auto& rel : files) {
    const fs::path p = fs::path(dir) / rel;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) {
      if (fs::exists(p, ec) && !fs::is_regular_file(p, ec)) {
        return InvalidArgument(p.string() + ": not a regular file");
      }
      continue;
    }
    // A link is allowed only as a mirror of the same file in another tasks
    // tree (Bazel's runfiles): its target's path ends with <task id>/<file>.
    const fs::path target = fs::canonical(p, ec);
    const std::string want = "/" + task_id + "/" + fs::path(rel).lexically_normal().generic_string();
    const std::string got = target.generic_string();
    if (ec || got.size() < want.size() ||
        got.compare(got.size() - want.size(), want.size(), want) != 0) {
      return InvalidArgument(p.string() + ": a link to '" + (ec ? std::string("nothing") : got) +
                             "', outside the task; a task's files are files, not links");
    }
    if (!fs::is_regular_file(target, ec)) {
      return InvalidArgument(p.string() + ": a link to something that is not a regular file");
    }
  }
  return OkStatus();
}

}  // namespace arena
