#pragma once
// Why the model dropped a frame or a copy: what the units report, the
// ledger counts and the database records (drops.reason).
namespace fabric {

// shared_memory: a frame that does not fit in a shared-memory switch (backplane).
enum class DropReason {
  payload,
  header_pool,
  header_red,
  header_memory,
  voq_tail,
  voq_head,
  link,
  shared_memory,
  host_queue,
  other
};
const char* to_string(DropReason reason);

}  // namespace fabric
