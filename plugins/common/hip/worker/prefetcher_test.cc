#include "plugins/common/hip/worker/prefetcher.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

// A gate the jobs wait at, counting how many are waiting at once.
class Gate {
 public:
  int Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    const int at_once = ++waiting_;
    most_ = std::max(most_, at_once);
    cv_.notify_all();
    cv_.wait(lock, [this] { return open_; });
    --waiting_;
    return at_once;
  }
  // Until `n` jobs wait together (false after a second).
  bool AwaitWaiting(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(1), [&] { return waiting_ >= n; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int most() {
    std::lock_guard<std::mutex> lock(mu_);
    return most_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int waiting_ = 0, most_ = 0;
  bool open_ = false;
};

TEST(Prefetcher, ValuesAreMadeSideBySideAndHandedOverOnce) {
  Prefetcher<std::string> ahead(100);
  Gate gate;
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_TRUE(ahead.Start(key, 10, [&gate, key] {
      gate.Wait();
      return std::string("made ") + key;
    }));
  }
  // All three run at once: none waits for another to end.
  EXPECT_TRUE(gate.AwaitWaiting(3));
  gate.Open();
  EXPECT_EQ(ahead.Take("b").value_or(""), "made b");
  EXPECT_FALSE(ahead.Take("b").has_value());  // handed over already
  EXPECT_FALSE(ahead.Take("never").has_value());
  ahead.Finish();
  EXPECT_EQ(ahead.bytes(), 20u);
  EXPECT_EQ(ahead.Take("a").value_or(""), "made a");
  EXPECT_EQ(gate.most(), 3);
}

TEST(Prefetcher, NothingStartsPastTheBudgetButOneAloneAlways) {
  Prefetcher<int> ahead(25);
  EXPECT_TRUE(ahead.Start("a", 10, [] { return 1; }));
  EXPECT_TRUE(ahead.Start("b", 10, [] { return 2; }));
  EXPECT_FALSE(ahead.Start("c", 10, [] { return 3; }));  // 30 > 25
  EXPECT_FALSE(ahead.Has("c"));
  EXPECT_TRUE(ahead.Start("a", 10, [] { return 9; }));  // being made already: not again
  EXPECT_EQ(ahead.Take("a").value_or(0), 1);
  EXPECT_TRUE(ahead.Start("c", 10, [] { return 3; }));  // room again
  ahead.Clear();
  EXPECT_EQ(ahead.bytes(), 0u);
  EXPECT_FALSE(ahead.Has("b"));
  // Larger than the whole budget: started when nothing else is held.
  EXPECT_TRUE(ahead.Start("huge", 1000, [] { return 4; }));
  EXPECT_FALSE(ahead.Start("d", 1, [] { return 5; }));
  EXPECT_EQ(ahead.Take("huge").value_or(0), 4);
}

TEST(Prefetcher, FinishWaitsForEveryOne) {
  Prefetcher<int> ahead(100);
  std::atomic<int> done{0};
  for (int i = 0; i < 4; ++i) {
    ahead.Start(std::to_string(i), 1, [&done, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20 * i));
      ++done;
      return i;
    });
  }
  ahead.Finish();
  EXPECT_EQ(done.load(), 4);
  EXPECT_EQ(ahead.Take("3").value_or(-1), 3);
}

TEST(SideBySide, RunsAtMostSoManyAtOnceAndKeepsEachResultInItsPlace) {
  Gate gate;
  std::atomic<int> running{0}, most{0};
  std::function<int(size_t)> square = [&](size_t k) {
    const int now = ++running;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    if (k < 2) gate.Wait();  // the first batch's two wait for each other
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --running;
    return static_cast<int>(k * k);
  };
  std::thread opener([&gate] {
    gate.AwaitWaiting(2);
    gate.Open();
  });
  const auto done = SideBySide<int>(5, 2, square);
  opener.join();
  ASSERT_EQ(done.size(), 5u);
  for (size_t k = 0; k < done.size(); ++k) EXPECT_EQ(done[k].value_or(-1), static_cast<int>(k * k));
  EXPECT_EQ(most.load(), 2);  // side by side, and never more than two
  EXPECT_EQ(SideBySide<int>(3, 0, square)[2].value_or(-1), 4);  // at least one at a time
}

}  // namespace
}  // namespace arena::hip2hip
