#pragma once
// Which ranks measure together: pairs (2k, 2k+1), the even rank sends and the odd rank receives,
// all pairs at the same time; with an odd process count the last rank idles.
#include <optional>

namespace pbench::logp {

enum class PairRole { sender, receiver, idle };

class PairLayout {
 public:
  /// The layout seen by `rank` in a world of `size` processes (size >= 1).
  PairLayout(int rank, int size);

  /// What this rank does: send, receive, or idle (the last rank of an odd count).
  PairRole role() const { return role_; }
  /// The other rank of this rank's pair; -1 when idle.
  int partner() const { return partner_; }
  /// This rank's pair index k (ranks 2k and 2k+1); -1 when idle.
  int pair() const { return pair_; }
  /// Number of pairs, size / 2 (0 with one process).
  int pair_count() const { return pair_count_; }
  /// The rank that idles, when the process count is odd.
  std::optional<int> idle_rank() const { return idle_rank_; }
  /// The sending (even) rank of pair k.
  static int sender_of(int pair) { return 2 * pair; }
  /// The receiving (odd) rank of pair k.
  static int receiver_of(int pair) { return 2 * pair + 1; }

 private:
  PairRole role_ = PairRole::idle;
  int partner_ = -1;
  int pair_ = -1;
  int pair_count_ = 0;
  std::optional<int> idle_rank_;
};

/// "send", "recv" or "idle".
const char* role_name(PairRole role);

}  // namespace pbench::logp
