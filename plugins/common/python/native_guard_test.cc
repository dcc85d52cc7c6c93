// The native-code guard (native_guard.cc) in the sandbox the Triton runner
// gets: a process that locked it loads libraries of the installation and
// the launchers' folder, and ends (status 86) at any other library it is
// asked to load, by a path or by a search.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/process.h"
#include "core/sandbox.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kDir[] = "plugins/common/python/";
constexpr char kGuard[] = "/opt/guard/libarena_native_guard.so";
constexpr char kInstalled[] = "/opt/installed/libtestlib.so";
constexpr char kLock[] = "load:arena-native-lock:/opt/guard/libarena_native_guard.so";
constexpr int kRefused = 86;

class NativeGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = SandboxUnavailableReason();
    ASSERT_TRUE(why.empty()) << "the sandbox must work on CI machines: " << why;
    root_ = ::testing::TempDir() + "/native_guard_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(root_ + "/workspace").ok());
    sb_.workspace = root_ + "/workspace";
    sb_.workspace_read_only = true;
    sb_.tmp_bytes = 64 << 20;
    sb_.read_only = {{Built("libarena_native_guard.so"), kGuard},
                     {Built("native_guard_probe"), "/opt/probe/native_guard_probe"},
                     {Built("libnative_guard_testlib.so"), kInstalled}};
    sb_.env = {{"LD_AUDIT", kGuard},
               {"NATIVE_GUARD_ROOTS", "/usr:/opt/installed:/opt/probe:/opt/guard"},
               {"NATIVE_GUARD_LAUNCHERS", "/tmp/launchers"}};
  }

  static std::string Built(const std::string& name) {
    return fs::canonical(fs::path(kDir) / name).string();
  }

  ProcessResult Run(const std::vector<std::string>& steps) {
    std::vector<std::string> argv = {"/opt/probe/native_guard_probe"};
    argv.insert(argv.end(), steps.begin(), steps.end());
    auto p = SandboxedProcess(sb_, argv);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    p->timeout_s = 30;
    auto r = RunProcess(*p);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  }

  std::string root_;
  SandboxOptions sb_;
};

TEST_F(NativeGuardTest, BeforeTheLockAnyLibraryLoads) {
  ProcessResult r = Run({std::string("copy:") + kInstalled + ":/tmp/own.so", "load:/tmp/own.so"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("loaded /tmp/own.so"), std::string::npos) << r.out;
}

TEST_F(NativeGuardTest, TheLockLoadsOnlyWhereTheGuardRuns) {
  ProcessResult r = Run({kLock, std::string("load:") + kInstalled});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("loaded arena-native-lock:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("loaded ") + kInstalled), std::string::npos) << r.out;
  // Without the guard the lock's name is no file: the runner can tell.
  sb_.env.erase("LD_AUDIT");
  r = Run({kLock});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("failed arena-native-lock:"), std::string::npos) << r.out;
}

TEST_F(NativeGuardTest, AfterTheLockALibraryOfItsOwnEndsTheProcess) {
  ProcessResult r = Run({std::string("copy:") + kInstalled + ":/tmp/own.so", kLock, "load:/tmp/own.so",
                         "load:/usr/lib/never-reached.so"});
  EXPECT_EQ(r.exit_code, kRefused) << r.out << r.err;
  EXPECT_NE(r.err.find("native code from outside the installation: /tmp/own.so"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("never-reached"), std::string::npos) << r.out;
}

TEST_F(NativeGuardTest, AFolderNamedAsARootButWritableIsNotTheInstallation) {
  // The subject could make a folder of the root's name on a writable
  // mount (moving the real one's parent aside): a root counts only on a
  // read-only mount.
  sb_.env["NATIVE_GUARD_ROOTS"] += ":/tmp/fake";
  ProcessResult r = Run({std::string("copy:") + kInstalled + ":/tmp/fake.so", kLock,
                         "load:/tmp/fake.so"});
  EXPECT_EQ(r.exit_code, kRefused) << r.out << r.err;
  sb_.env["NATIVE_GUARD_ROOTS"] = "/usr:/opt/installed:/opt/probe:/opt/guard:/tmp";
  r = Run({std::string("copy:") + kInstalled + ":/tmp/fake.so", kLock, "load:/tmp/fake.so"});
  EXPECT_EQ(r.exit_code, kRefused) << r.out << r.err;
  EXPECT_NE(r.err.find("/tmp/fake.so"), std::string::npos) << r.err;
}

TEST_F(NativeGuardTest, TheLaunchersFolderLoadsAfterTheLock) {
  ProcessResult r = Run({std::string("copy:") + kInstalled + ":/tmp/launchers.so", kLock,
                         "load:/tmp/launchers.so"});
  EXPECT_EQ(r.exit_code, kRefused) << r.out << r.err;
  // The probe cannot make the folder itself: its parent is /tmp.
  sb_.env["NATIVE_GUARD_LAUNCHERS"] = "/tmp";
  r = Run({std::string("copy:") + kInstalled + ":/tmp/launcher.so", kLock, "load:/tmp/launcher.so"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("loaded /tmp/launcher.so"), std::string::npos) << r.out;
}

TEST_F(NativeGuardTest, ASearchPassesOverPlacesOutsideTheInstallation) {
  // A bare name searched on LD_LIBRARY_PATH: the copy in /tmp is not
  // found (the load fails, the process goes on); the installation's is.
  sb_.env["LD_LIBRARY_PATH"] = "/tmp";
  ProcessResult r = Run({std::string("copy:") + kInstalled + ":/tmp/libsearched.so", kLock,
                         "load:libsearched.so", "load:libtestlib.so"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("failed libsearched.so"), std::string::npos) << r.out;
  sb_.env["LD_LIBRARY_PATH"] = "/opt/installed";
  r = Run({kLock, "load:libtestlib.so"});
  EXPECT_NE(r.out.find("loaded libtestlib.so"), std::string::npos) << r.out;
  sb_.env["LD_LIBRARY_PATH"] = "/tmp:/opt/installed";
  r = Run({kLock, "load:libtestlib.so"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("loaded libtestlib.so"), std::string::npos) << r.out;
}

TEST_F(NativeGuardTest, ANameThroughLinksIsTheFileItReaches) {
  ProcessResult r = Run({kLock, std::string("load:") + kInstalled});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Run({std::string("copy:") + kInstalled + ":/tmp/own.so", kLock, "load:/proc/self/cwd/../tmp/own.so"});
  EXPECT_EQ(r.exit_code, kRefused) << r.out << r.err;
}

}  // namespace
}  // namespace arena
