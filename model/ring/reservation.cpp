#include "model/ring/reservation.h"

#include <algorithm>
#include <cstddef>

namespace fabric::ring {

const ReceiveBuffers::Entry* ReceiveBuffers::find(const Priority& p) const {
  for (const Entry& e : entries_)
    if (e.priority == p) return &e;
  return nullptr;
}

bool ReceiveBuffers::holds(const Priority& p) const { return find(p) != nullptr; }

TicketOutcome ReceiveBuffers::on_ticket(const Priority& p) {
  if (holds(p)) return {TicketOutcome::Kind::already_held, {}};
  if (free() > 0) {
    entries_.push_back({p, false});
    return {TicketOutcome::Kind::reserved, {}};
  }
  // Full: the lowest-priority reservation not yet filled, if it is lower
  // than the ticket's, is asked to retract.
  const Entry* lowest = nullptr;
  for (const Entry& e : entries_)
    if (!e.filled && (lowest == nullptr || lowest->priority < e.priority)) lowest = &e;
  if (lowest && p < lowest->priority) return {TicketOutcome::Kind::retract_request, lowest->priority};
  return {TicketOutcome::Kind::full, {}};
}

bool ReceiveBuffers::fill(const Priority& p) {
  for (Entry& e : entries_) {
    if (e.priority == p) {
      e.filled = true;
      return true;
    }
  }
  return false;
}

void ReceiveBuffers::cancel(const Priority& p) {
  entries_.erase(
      std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.priority == p && !e.filled; }),
      entries_.end());
}

void ReceiveBuffers::release(const Priority& p) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.priority == p; }),
                 entries_.end());
}

int ReceiveBuffers::reserved() const {
  return static_cast<int>(std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return !e.filled; }));
}

bool ReceiveBuffers::awaits(int station) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return !e.filled && e.priority.station == station; });
}

int ReceiveBuffers::holders() const {
  int n = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const int station = entries_[i].priority.station;
    const bool first = std::none_of(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(i),
                                    [&](const Entry& e) { return e.priority.station == station; });
    if (first) ++n;
  }
  return n;
}

int ReceiveBuffers::filled() const { return static_cast<int>(entries_.size()) - reserved(); }

bool ForwardedRequests::note(const Priority& victim) {
  if (std::find(victims_.begin(), victims_.end(), victim) != victims_.end()) return false;
  victims_.push_back(victim);
  return true;
}

void ForwardedRequests::forget(const Priority& victim) {
  victims_.erase(std::remove(victims_.begin(), victims_.end(), victim), victims_.end());
}

bool TicketMap::pending(int station) const {
  return std::find(pending_.begin(), pending_.end(), station) != pending_.end();
}

void TicketMap::clear(int station) {
  pending_.erase(std::remove(pending_.begin(), pending_.end(), station), pending_.end());
}

}  // namespace fabric::ring
