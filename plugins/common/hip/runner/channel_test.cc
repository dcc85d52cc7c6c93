#include "plugins/common/hip/runner/channel.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

struct Pair {
  std::unique_ptr<Channel> a, b;
  Pair() {
    int sv[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    a = std::make_unique<Channel>(sv[0]);
    b = std::make_unique<Channel>(sv[1]);
  }
};

void Raw(int fd, const std::string& bytes) {
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

std::string Frame(const std::string& body) {
  std::string f(4, '\0');
  for (int i = 0; i < 4; ++i) f[static_cast<size_t>(i)] = static_cast<char>((body.size() >> (8 * i)) & 0xff);
  return f + body;
}

TEST(Channel, MessagesArriveWholeAndInOrder) {
  Pair p;
  ASSERT_TRUE(p.a->Send({{"op", "call"}, {"sets", 3}}).ok());
  ASSERT_TRUE(p.a->Send({{"op", "empty"}}).ok());
  auto m1 = p.b->Receive(5);
  ASSERT_TRUE(m1.ok()) << m1.status().message();
  EXPECT_EQ(m1->body["sets"], 3);
  auto m2 = p.b->Receive(5);
  ASSERT_TRUE(m2.ok());
  EXPECT_EQ(m2->body["op"], "empty");
}

TEST(Channel, LargeMessagesCrossManyReads) {
  Pair p;
  const std::string big(3 << 20, 'x');
  std::thread writer([&] { ASSERT_TRUE(p.a->Send({{"blob", big}}).ok()); });
  auto m = p.b->Receive(10);
  writer.join();
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->body["blob"].get<std::string>().size(), big.size());
}

TEST(Channel, DescriptorsRideWithTheirMessage) {
  Pair p;
  const int mem = memfd_create("lent", 0);
  ASSERT_GE(mem, 0);
  ASSERT_EQ(write(mem, "judge", 5), 5);
  ASSERT_TRUE(p.a->Send({{"op", "bind"}}, {mem}).ok());
  close(mem);
  auto m = p.b->Receive(5);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->fds.size(), 1u);
  char buf[5];
  ASSERT_EQ(pread(m->fds[0], buf, 5, 0), 5);
  EXPECT_EQ(std::string(buf, 5), "judge");
  close(m->fds[0]);
}

TEST(Channel, GarbageIsAProtocolBreak) {
  Pair p;
  Raw(p.a->fd(), Frame("not json at all"));
  auto m = p.b->Receive(5);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kDataLoss);
}

TEST(Channel, InvalidUtf8AndNonObjectsAreProtocolBreaks) {
  for (const std::string& body : {std::string("\"\xff\xfe\""), std::string("[1,2]"), std::string("7")}) {
    Pair p;
    Raw(p.a->fd(), Frame(body));
    auto m = p.b->Receive(5);
    ASSERT_FALSE(m.ok()) << body;
    EXPECT_EQ(m.status().code(), StatusCode::kDataLoss) << body;
  }
}

TEST(Channel, AnOversizedFrameIsRefusedBeforeItIsRead) {
  Pair p;
  Raw(p.a->fd(), std::string("\xff\xff\xff\x7f", 4));
  auto m = p.b->Receive(5);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(m.status().message().find("bytes"), std::string::npos);
}

TEST(Channel, SilenceTimesOut) {
  Pair p;
  Raw(p.a->fd(), std::string("\x10\x00", 2));  // half a header, then nothing
  auto m = p.b->Receive(0.2);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kDeadlineExceeded);
}

TEST(Channel, AClosedPeerIsGone) {
  Pair p;
  Raw(p.a->fd(), std::string("\x40\x00\x00\x00{\"ok\":", 10));  // a message cut short
  p.a.reset();
  auto m = p.b->Receive(5);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kUnavailable);
  EXPECT_FALSE(p.b->Send({{"op", "empty"}}).ok());
}

TEST(Channel, APolledReceiveReadsWhatAWaitingOneReads) {
  // Within a timed round both ends poll before they wait: a message that
  // is there, one that comes in two pieces while polled or once the poll
  // is over, and one with a descriptor, all arrive whole; silence still
  // times out and a closed peer is still gone.
  Pair p;
  p.b->set_spin_s(0.05);
  ASSERT_TRUE(p.a->Send({{"op", "there"}}).ok());
  auto there = p.b->Receive(5);
  ASSERT_TRUE(there.ok());
  EXPECT_EQ(there->body["op"], "there");
  for (int delay_ms : {10, 150}) {
    std::thread later([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      const std::string f = Frame(R"({"op":"later"})");
      Raw(p.a->fd(), f.substr(0, 6));
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      Raw(p.a->fd(), f.substr(6));
    });
    auto got = p.b->Receive(5);
    later.join();
    ASSERT_TRUE(got.ok()) << delay_ms;
    EXPECT_EQ(got->body["op"], "later");
    EXPECT_TRUE(got->fds.empty());
  }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(p.a->Send({{"op", "with"}}, {fds[0]}).ok());
  close(fds[0]);
  close(fds[1]);
  auto with = p.b->Receive(5);
  ASSERT_TRUE(with.ok());
  EXPECT_EQ(with->body["op"], "with");
  ASSERT_EQ(with->fds.size(), 1u);
  close(with->fds[0]);
  Raw(p.a->fd(), std::string("\x10\x00", 2));  // half a header, then nothing
  auto silent = p.b->Receive(0.2);
  ASSERT_FALSE(silent.ok());
  EXPECT_EQ(silent.status().code(), StatusCode::kDeadlineExceeded);
  p.a.reset();
  auto gone = p.b->Receive(5);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace arena::hip2hip
