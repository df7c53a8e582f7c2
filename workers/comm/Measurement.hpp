#pragma once
// One b_eff measurement: a pattern, a message size, a method and a repetition, timed over
// `looplength` iterations (METHODS.md section 1, "One measurement").
#include <cstdint>

#include "comm/Method.hpp"
#include "common/Stats.hpp"

namespace pbench::comm {

struct Measurement {
  int pattern = 0;                 ///< index into PatternSet::patterns
  int position = 0;                ///< index of the size among the 21 (0 = 1 B, 20 = L_max)
  std::int64_t size = 0;           ///< message size, B
  Method method = Method::kSendrecv;
  int repetition = 0;              ///< from 0
  std::int64_t looplength = 0;     ///< timed iterations
  worker::Stats time;              ///< per-process loop times over the taking-part processes, s
  double bandwidth = 0;            ///< size * messages per iteration * looplength / time.max, B/s
  std::int64_t check_errors = 0;   ///< received messages whose first or last byte was wrong
};

}  // namespace pbench::comm
