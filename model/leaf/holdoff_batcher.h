#pragma once
// Coalescing of a VOQ's control messages (spec: fabric.md, "Control
// messages of the same VOQ may be coalesced"; mechanisms.md section 11).
// Per key (a VOQ's messages of one kind), the first message after a quiet
// spell leaves at once, so an idle fabric pays no latency for it; a message
// that follows within the hold-off of the last one sent waits until the
// hold-off has passed, and every later one of the same key merges into it,
// up to a batch of `max_batch` messages, which then leaves at once. A batch
// the merge rule refuses (a request past one jumbo frame) leaves at once too
// and the refused message starts the next batch.
//
// Plain C++: the caller owns the items (messages), merges them, and wakes
// for the time a held batch is due. Entries stay per key (a VOQ's last send
// time), bounded by the VOQs of the leaf, in a flat map: every request,
// grant and ACK of the leaf looks its key up.
#include <cstdint>
#include <optional>

#include "model/core/flat_map.h"
#include "model/core/ids.h"

namespace fabric {

template <class Item>
class HoldoffBatcher {
 public:
  HoldoffBatcher(Picos holdoff, uint32_t max_batch) : holdoff_(holdoff), max_batch_(max_batch) {}

  struct Outcome {
    std::optional<Item> send;  // to send now
    std::optional<Picos> due;  // a batch was opened: wake then and take_due()
  };

  // `item` of `key` at `now`; `merge(held, item)` merges item into held and
  // says whether it could.
  template <class Merge>
  Outcome offer(uint64_t key, Item item, Picos now, Merge&& merge) {
    Entry& e = entries_[key];
    if (e.held) {
      if (merge(*e.held, item)) {
        ++merged_;
        if (++e.batch < max_batch_) return {};
        return {release(e, now), std::nullopt};
      }
      const Item full = *e.held;  // refused: the batch leaves, the new message opens the next
      e.held = item;
      e.batch = 1;
      e.last_sent = now;
      e.due = now + holdoff_;
      return {full, e.due};
    }
    if (!e.ever_sent || now - e.last_sent >= holdoff_ || max_batch_ <= 1) {
      e.ever_sent = true;
      e.last_sent = now;
      return {item, std::nullopt};
    }
    e.held = item;
    e.batch = 1;
    e.due = e.last_sent + holdoff_;
    return {std::nullopt, e.due};
  }

  // The batch of `key` if it is `item` and due by `now` (a wake for a batch
  // that left early finds nothing).
  // The held batch of `key`, if it is due by `now` (a wake for a batch that
  // has left since, full or refused, finds nothing: the next batch of the
  // key, if any, is due later).
  std::optional<Item> take_due(uint64_t key, Picos now) {
    Entry* e = entries_.find(key);
    if (e == nullptr || !e->held || e->due > now) return std::nullopt;
    return release(*e, now);
  }

  uint64_t merged() const { return merged_; }  // messages that rode in another

 private:
  struct Entry {
    std::optional<Item> held;
    uint32_t batch = 0;
    bool ever_sent = false;
    Picos last_sent = 0;
    Picos due = 0;
  };
  std::optional<Item> release(Entry& e, Picos now) {
    std::optional<Item> out = e.held;
    e.held.reset();
    e.last_sent = now;
    e.ever_sent = true;
    return out;
  }

  Picos holdoff_;
  uint32_t max_batch_;
  FlatMap<Entry> entries_;
  uint64_t merged_ = 0;
};

}  // namespace fabric
