#include "links/LinksParameters.hpp"

namespace pbench::links {

void LinksParameters::declare(worker::Parameters& parameters) {
  parameters.add("latency_roundtrips", latency_roundtrips, "count", worker::Range{1, 1e9},
                 "Round trips of an 8-byte message per link and repetition; latency is half "
                 "the mean round trip");
  parameters.add("message_size", message_size, "B",
                 worker::Range{1, static_cast<long double>(kLargestMessage)},
                 "Size of each message of the bandwidth measurement");
  parameters.add("messages", messages, "count", worker::Range{1, 1e6},
                 "Messages each node sends to its partner per bandwidth measurement, all posted "
                 "at once");
  parameters.add("repetitions", repetitions, "count", worker::Range{1, 1e6},
                 "Repetitions of every step; a link's latency is the minimum, its bandwidth the "
                 "maximum over them");
}

void LinksParameters::check() const {
  if (latency_roundtrips < 1) throw worker::UsageError("--latency-roundtrips must be at least 1");
  if (message_size < 1 || message_size > kLargestMessage) {
    throw worker::UsageError(
        "--message-size must be from 1 B to 1 GiB (an int count addresses it)");
  }
  if (messages < 1) throw worker::UsageError("--messages must be at least 1");
  if (messages * message_size > 4 * kLargestMessage) {
    throw worker::UsageError(
        "--messages x --message-size must not exceed 4 GiB (the receive buffer holds them all)");
  }
  if (repetitions < 1) throw worker::UsageError("--repetitions must be at least 1");
}

}  // namespace pbench::links
