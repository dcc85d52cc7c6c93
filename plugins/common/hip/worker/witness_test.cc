#include "plugins/common/hip/worker/witness.h"

#include <cstring>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

// `sets` runs of `run` places of `dtype`, all poison.
HostTensor Runs(ArenaDtype dtype, size_t sets, size_t run) {
  return Poisoned(dtype, {static_cast<int64_t>(sets * run)});
}

void Write(HostTensor* t, size_t j, int8_t v) {
  std::memset(t->bytes.data() + j * DtypeSize(t->dtype), static_cast<unsigned char>(v), DtypeSize(t->dtype));
}

TEST(Witness, LaterSetsUntouchedAreNotWrittenAhead) {
  EXPECT_EQ(FirstWrittenAhead(Runs(ARENA_FLOAT16, 5, 64), 64), -1);
  EXPECT_EQ(FirstWrittenAhead(Runs(ARENA_INT8, 3, 7), 7), -1);
}

TEST(Witness, APlaceWrittenBeforeItsCallNamesItsSet) {
  HostTensor runs = Runs(ARENA_FLOAT16, 5, 64);
  Write(&runs, 2 * 64 + 63, 0);  // set 2's last place: 0.0
  EXPECT_EQ(FirstWrittenAhead(runs, 64), 2);
  Write(&runs, 64, 0);
  EXPECT_EQ(FirstWrittenAhead(runs, 64), 1);
}

TEST(Witness, BesideTheOtherSubjectAPlaceLeftPoisonedWhereItsIsWrittenIsFound) {
  HostTensor mine = Runs(ARENA_FLOAT32, 4, 8), theirs = Runs(ARENA_FLOAT32, 4, 8);
  for (size_t j = 0; j < 32; ++j) {
    Write(&mine, j, 1);
    Write(&theirs, j, 1);
  }
  EXPECT_EQ(FirstLeftPoisoned(mine, &theirs, 8), -1);
  // Poisoned in both (an output neither writes there): not this subject's.
  mine = Runs(ARENA_FLOAT32, 4, 8);
  theirs = Runs(ARENA_FLOAT32, 4, 8);
  EXPECT_EQ(FirstLeftPoisoned(mine, &theirs, 8), -1);
  // One place of set 3 left where the other wrote it.
  for (size_t j = 0; j < 32; ++j) {
    Write(&theirs, j, 1);
    if (j != 3 * 8 + 5) Write(&mine, j, 1);
  }
  EXPECT_EQ(FirstLeftPoisoned(mine, &theirs, 8), 3);
}

TEST(Witness, TimedAloneOnlyAWholeRunLeftPoisonedIsFound) {
  // int8: the poison (-128) is also a value an honest output may hold.
  HostTensor mine = Runs(ARENA_INT8, 3, 4);
  for (size_t j = 0; j < 12; ++j) Write(&mine, j, j == 5 ? -128 : 3);
  EXPECT_EQ(FirstLeftPoisoned(mine, nullptr, 4), -1);
  for (size_t j = 8; j < 12; ++j) Write(&mine, j, -128);
  EXPECT_EQ(FirstLeftPoisoned(mine, nullptr, 4), 2);
}

}  // namespace
}  // namespace arena::hip2hip
