#include "core/provenance.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

namespace arena {
namespace {
namespace fs = std::filesystem;

std::string HexOf(const unsigned char* digest) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < SHA256_DIGEST_LENGTH; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

// A SHA-256 being computed.
class Digest {
 public:
  Digest() : ctx_(EVP_MD_CTX_new()) { EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr); }
  ~Digest() { EVP_MD_CTX_free(ctx_); }
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;
  void Add(const void* data, size_t n) { EVP_DigestUpdate(ctx_, data, n); }
  bool AddFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    char buf[1 << 16];
    while (in.read(buf, sizeof(buf)) || in.gcount() > 0) Add(buf, static_cast<size_t>(in.gcount()));
    return true;
  }
  std::string Hex() {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    unsigned int n = 0;
    EVP_DigestFinal_ex(ctx_, digest, &n);
    return HexOf(digest);
  }

 private:
  EVP_MD_CTX* ctx_;
};

// SHA-256 of `names` (sorted, without repeats) in `dir`: each as its name, a
// NUL, its bytes and a NUL. A file that cannot be read is an error, unless
// `absent_ok`, where it counts as its name and a lone marker byte.
Result<std::string> HashNamedFiles(const fs::path& dir, std::vector<std::string> names,
                                   const std::string& what, bool absent_ok) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  Digest d;
  for (const auto& name : names) {
    d.Add(name.data(), name.size() + 1);  // the name and its NUL
    if (!d.AddFile(dir / name)) {
      if (!absent_ok) return NotFound(what + ": cannot read " + name + " to fingerprint it");
      d.Add("\x01", 1);
      continue;
    }
    d.Add("", 1);
  }
  return d.Hex();
}

}  // namespace

Result<std::string> TaskContentHash(const TaskSpec& task) {
  std::vector<std::string> names = {"task.yaml"};
  if (task.starter) names.insert(names.end(), task.editable.begin(), task.editable.end());
  names.insert(names.end(), task.harness.begin(), task.harness.end());
  return HashNamedFiles(task.dir, std::move(names), task.id, /*absent_ok=*/false);
}

std::string CandidateContentHash(const TaskSpec& task, const std::string& candidate_dir) {
  auto hash = HashNamedFiles(candidate_dir, task.editable, task.id, /*absent_ok=*/true);
  return hash.ok() ? *hash : "";
}

std::string ArenaBuild() {
  static std::once_flag once;
  static std::string build;
  std::call_once(once, [] {
    Digest d;
    if (d.AddFile("/proc/self/exe")) build = d.Hex();
  });
  return build;
}

namespace {
std::mutex version_mu;
std::string& VersionSlot() {
  static std::string* version = new std::string("unstamped");
  return *version;
}
}  // namespace

std::string ArenaVersion() {
  std::lock_guard<std::mutex> lock(version_mu);
  return VersionSlot();
}

void SetArenaVersion(const std::string& version) {
  std::lock_guard<std::mutex> lock(version_mu);
  VersionSlot() = version.empty() ? "unstamped" : version;
}

nlohmann::json MakeProvenance(const TaskSpec& task, const DeviceInfo& device) {
  auto hash = TaskContentHash(task);
  return {{"task_hash", hash.ok() ? *hash : ""},
          {"scoring_version", kScoringVersion},
          {"arena_build", ArenaBuild()},
          {"arena_version", ArenaVersion()},
          {"device", device.name},
          {"arch", device.arch},
          {"driver", device.driver}};
}

std::string ComparableKey(const nlohmann::json& provenance) {
  if (!provenance.is_object() || !provenance.contains("scoring_version")) return "";
  const std::string arch = provenance.value("arch", "");
  return provenance.value("device", "") + (arch.empty() ? "" : " (" + arch + ")") + ", scoring v" +
         std::to_string(provenance.value("scoring_version", 0));
}

}  // namespace arena
