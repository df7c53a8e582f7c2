#include "links/LinksParameters.hpp"

namespace pbench::links {

void LinksParameters::declare(worker::Parameters& parameters) {
  parameters.add("latency_roundtrips", latency_roundtrips, "count",
                 "Round trips of an 8-byte message per link and repetition; latency is half "
                 "the mean round trip");
  parameters.add("message_size", message_size, "B",
                 "Size of each message of the bandwidth measurement");
  parameters.add("messages", messages, "count",
                 "Messages each node sends to its partner per bandwidth measurement, all posted "
                 "at once");
  parameters.add("repetitions", repetitions, "count",
                 "Repetitions of every step; a link's latency is the minimum, its bandwidth the "
                 "maximum over them");
}

std::optional<std::string> LinksParameters::problem() const {
  if (latency_roundtrips < 1) return "--latency-roundtrips must be at least 1";
  if (message_size < 1 || message_size > kLargestMessage) {
    return "--message-size must be from 1 B to 1 GiB (an int count addresses it)";
  }
  if (messages < 1) return "--messages must be at least 1";
  if (messages * message_size > 4 * kLargestMessage) {
    return "--messages x --message-size must not exceed 4 GiB (the receive buffer holds them all)";
  }
  if (repetitions < 1) return "--repetitions must be at least 1";
  return std::nullopt;
}

}  // namespace pbench::links
