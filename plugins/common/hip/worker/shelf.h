// Values kept by key within a byte budget, least recently put first out:
// the HIP worker keeps the trials (inputs and CPU references) of the
// configurations it checked, so that a session kept open across feedback
// calls, which checks the same configurations on the same seed call after
// call, prepares them once.
//
//   Shelf<Trials> shelf(8 << 30);
//   shelf.Put("tuning_n4096/7", std::move(trials), bytes);
//   if (auto t = shelf.Take("tuning_n4096/7")) ...  // off the shelf again
#ifndef ARENA_PLUGINS_HIP2HIP_WORKER_SHELF_H_
#define ARENA_PLUGINS_HIP2HIP_WORKER_SHELF_H_

#include <cstddef>
#include <list>
#include <optional>
#include <string>
#include <utility>

namespace arena::hip2hip {

template <typename V>
class Shelf {
 public:
  explicit Shelf(size_t budget_bytes) : budget_(budget_bytes) {}

  // Puts `value` (taking `bytes`) under `key`, replacing what was there,
  // then drops the oldest values until the rest fit the budget. A value
  // larger than the whole budget is not kept, and drops nothing.
  void Put(const std::string& key, V value, size_t bytes) {
    Take(key);
    if (bytes > budget_) return;
    items_.push_back({key, std::move(value), bytes});
    bytes_ += bytes;
    while (!items_.empty() && bytes_ > budget_) {
      bytes_ -= items_.front().bytes;
      items_.pop_front();
    }
  }

  // The value under `key`, taken off the shelf; nothing if none.
  std::optional<V> Take(const std::string& key) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->key == key) {
        std::optional<V> v(std::move(it->value));
        bytes_ -= it->bytes;
        items_.erase(it);
        return v;
      }
    }
    return std::nullopt;
  }

  bool Contains(const std::string& key) const {
    for (const auto& item : items_) {
      if (item.key == key) return true;
    }
    return false;
  }

  size_t bytes() const { return bytes_; }
  size_t size() const { return items_.size(); }

 private:
  struct Item {
    std::string key;
    V value;
    size_t bytes;
  };
  size_t budget_;
  size_t bytes_ = 0;
  std::list<Item> items_;  // oldest first
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_WORKER_SHELF_H_
