// Errors as values at every plugin edge.
//
// A Status is either ok or carries a code and a message; Result<T> holds a T
// or a non-ok Status. Nothing in the arena's interfaces throws: code that
// calls a throwing library (yaml-cpp, Boost) catches at its edge and returns a
// Status whose message names the file, line and field.
//
//   Result<TaskSpec> LoadTask(const std::string& path);
//   ARENA_ASSIGN_OR_RETURN(TaskSpec task, LoadTask(path));
//   ARENA_RETURN_IF_ERROR(Validate(task));
#ifndef ARENA_CORE_STATUS_H_
#define ARENA_CORE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace arena {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad input: a task file, a flag, a candidate layout
  kNotFound,
  kAlreadyExists,
  kFailedPrecondition,
  kUnavailable,       // a resource this machine lacks (no GPU, no compiler)
  kDeadlineExceeded,  // a time limit ran out
  kInternal,
  kDataLoss,          // stored data that cannot be read back (corrupt)
};

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;

  // Returns a copy whose message is "prefix: message".
  Status WithContext(const std::string& prefix) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}
inline Status NotFound(std::string m) {
  return Status(StatusCode::kNotFound, std::move(m));
}
inline Status AlreadyExists(std::string m) {
  return Status(StatusCode::kAlreadyExists, std::move(m));
}
inline Status FailedPrecondition(std::string m) {
  return Status(StatusCode::kFailedPrecondition, std::move(m));
}
inline Status Unavailable(std::string m) {
  return Status(StatusCode::kUnavailable, std::move(m));
}
inline Status DeadlineExceeded(std::string m) {
  return Status(StatusCode::kDeadlineExceeded, std::move(m));
}
inline Status Internal(std::string m) {
  return Status(StatusCode::kInternal, std::move(m));
}
inline Status DataLoss(std::string m) {
  return Status(StatusCode::kDataLoss, std::move(m));
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "a Result needs a value or an error");
    if (status_.ok()) status_ = Internal("Result built from an ok Status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T&& operator*() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace arena

#define ARENA_STATUS_CONCAT_INNER(a, b) a##b
#define ARENA_STATUS_CONCAT(a, b) ARENA_STATUS_CONCAT_INNER(a, b)

#define ARENA_RETURN_IF_ERROR(expr)              \
  do {                                           \
    ::arena::Status arena_status_ = (expr);      \
    if (!arena_status_.ok()) return arena_status_; \
  } while (0)

#define ARENA_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#define ARENA_ASSIGN_OR_RETURN(lhs, expr) \
  ARENA_ASSIGN_OR_RETURN_IMPL(            \
      ARENA_STATUS_CONCAT(arena_result_, __LINE__), lhs, expr)

#endif  // ARENA_CORE_STATUS_H_
