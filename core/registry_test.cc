#include "core/registry.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

struct Widget {
  virtual ~Widget() = default;
  virtual int value() const = 0;
};
struct One : Widget {
  int value() const override { return 1; }
};
struct Two : Widget {
  int value() const override { return 2; }
};

TEST(Registry, CreatesByName) {
  Registry<Widget> r;
  ASSERT_TRUE(r.Register("one", [] { return std::make_unique<One>(); }).ok());
  ASSERT_TRUE(r.Register("two", [] { return std::make_unique<Two>(); }).ok());
  auto w = r.Create("two");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)->value(), 2);
  EXPECT_EQ(r.Names(), (std::vector<std::string>{"one", "two"}));
}

TEST(Registry, RefusesDuplicates) {
  Registry<Widget> r;
  ASSERT_TRUE(r.Register("one", [] { return std::make_unique<One>(); }).ok());
  Status s = r.Register("one", [] { return std::make_unique<Two>(); });
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ((*r.Create("one"))->value(), 1) << "the first registration stays";
}

TEST(Registry, UnknownNameListsTheKnownOnes) {
  Registry<Widget> r;
  ASSERT_TRUE(r.Register("one", [] { return std::make_unique<One>(); }).ok());
  auto w = r.Create("three");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("known: one"), std::string::npos);
}

TEST(Registry, RefusesEmptyName) {
  Registry<Widget> r;
  EXPECT_FALSE(r.Register("", [] { return std::make_unique<One>(); }).ok());
}

}  // namespace
}  // namespace arena
