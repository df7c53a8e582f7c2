#include "comm/BeffFigures.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "comm/MessageSizes.hpp"

namespace pbench::comm {
namespace {

constexpr int kOneBytePosition = 0;
constexpr int kLmaxPosition = kMessageSizeCount - 1;

}  // namespace

std::optional<double> BeffFigures::logavg(const std::vector<std::optional<double>>& values) {
  if (values.empty()) return std::nullopt;
  double sum = 0;
  for (const auto& v : values) {
    if (!v || !(*v > 0) || !std::isfinite(*v)) return std::nullopt;
    sum += std::log(*v);
  }
  return std::exp(sum / static_cast<double>(values.size()));
}

BeffFigures BeffFigures::reduce(const BeffInput& input, const std::vector<Measurement>& rows) {
  const std::size_t npatterns = input.kinds.size();
  const std::size_t npositions = input.positions.size();
  std::vector<int> slot(kMessageSizeCount, -1);  // position -> k
  for (std::size_t k = 0; k < npositions; ++k) slot[static_cast<std::size_t>(input.positions[k])] = static_cast<int>(k);

  BeffFigures f;
  f.best.assign(npatterns, std::vector<std::optional<double>>(npositions));
  // rows[pattern][k]: how many measurements stand behind best[pattern][k]
  std::vector<std::vector<std::size_t>> count(npatterns, std::vector<std::size_t>(npositions, 0));
  for (const Measurement& m : rows) {
    const int k = slot[static_cast<std::size_t>(m.position)];
    if (k < 0 || m.pattern < 0 || static_cast<std::size_t>(m.pattern) >= npatterns) continue;
    if (!std::isfinite(m.bandwidth) || !(m.bandwidth > 0)) continue;
    auto& best = f.best[static_cast<std::size_t>(m.pattern)][static_cast<std::size_t>(k)];
    best = std::max(best.value_or(0.0), m.bandwidth);
    ++count[static_cast<std::size_t>(m.pattern)][static_cast<std::size_t>(k)];
  }

  f.b_pattern.resize(npatterns);
  for (std::size_t p = 0; p < npatterns; ++p) {
    double sum = 0;
    bool complete = npositions > 0;
    for (std::size_t k = 0; k < npositions; ++k) {
      if (!f.best[p][k]) complete = false;
      else sum += *f.best[p][k];
      f.b_pattern[p].samples += count[p][k];
    }
    if (complete) f.b_pattern[p].value = sum / static_cast<double>(npositions);
  }

  // logavg over the patterns of one kind of one value per pattern, with the samples behind it
  const auto over_kind = [&](PatternKind kind, auto value_of, auto samples_of) {
    Figure out;
    std::vector<std::optional<double>> values;
    for (std::size_t p = 0; p < npatterns; ++p) {
      if (input.kinds[p] != kind) continue;
      values.push_back(value_of(p));
      out.samples += samples_of(p);
    }
    out.value = logavg(values);
    return out;
  };
  const auto both = [](const Figure& a, const Figure& b) {
    return Figure{logavg({a.value, b.value}), a.samples + b.samples};
  };
  const auto at = [&](int position) {
    const int k = slot[static_cast<std::size_t>(position)];
    return [&, k](std::size_t p) { return k < 0 ? std::nullopt : f.best[p][static_cast<std::size_t>(k)]; };
  };
  const auto samples_at = [&](int position) {
    const int k = slot[static_cast<std::size_t>(position)];
    return [&, k](std::size_t p) { return k < 0 ? std::size_t{0} : count[p][static_cast<std::size_t>(k)]; };
  };
  const auto averaged = [&](std::size_t p) { return f.b_pattern[p].value; };
  const auto averaged_samples = [&](std::size_t p) { return f.b_pattern[p].samples; };

  f.b_ring = over_kind(PatternKind::kRing, averaged, averaged_samples);
  f.b_random = over_kind(PatternKind::kRandom, averaged, averaged_samples);
  f.b_eff = both(f.b_ring, f.b_random);

  f.b_ring_at_lmax = over_kind(PatternKind::kRing, at(kLmaxPosition), samples_at(kLmaxPosition));
  f.b_random_at_lmax = over_kind(PatternKind::kRandom, at(kLmaxPosition), samples_at(kLmaxPosition));
  f.b_eff_at_lmax = both(f.b_ring_at_lmax, f.b_random_at_lmax);

  const double one_byte = input.sizes.empty() ? 1.0 : static_cast<double>(input.sizes[0]);
  const double n = static_cast<double>(input.nprocs);
  const auto inverse = [](const Figure& rate, double bytes) {
    Figure out{std::nullopt, rate.samples};
    if (rate.value) out.value = bytes / *rate.value;
    return out;
  };
  const Figure ring_1b =
      over_kind(PatternKind::kRing, at(kOneBytePosition), samples_at(kOneBytePosition));
  const Figure random_1b =
      over_kind(PatternKind::kRandom, at(kOneBytePosition), samples_at(kOneBytePosition));
  f.latency_rings = inverse(ring_1b, n * one_byte);
  f.latency_rings_random = inverse(both(ring_1b, random_1b), n * one_byte);

  if (input.pingpong >= 0 && static_cast<std::size_t>(input.pingpong) < npatterns) {
    const auto pp = static_cast<std::size_t>(input.pingpong);
    f.latency_pingpong = inverse(Figure{at(kOneBytePosition)(pp), samples_at(kOneBytePosition)(pp)}, one_byte);
    f.pingpong_bandwidth = Figure{at(kLmaxPosition)(pp), samples_at(kLmaxPosition)(pp)};
  }
  return f;
}

worker::PhysicalLimits BeffFigures::physical_limits(const std::vector<Measurement>& rows) const {
  worker::PhysicalLimits limits;
  std::vector<worker::LabelledValue> times, bandwidths;
  for (const Measurement& m : rows) {
    const std::string label = "pattern " + std::to_string(m.pattern) + ", " +
                              std::to_string(m.size) + " B, " + method_name(m.method) +
                              ", repetition " + std::to_string(m.repetition);
    if (m.time.count > 0) times.push_back({label, m.time.max});
    bandwidths.push_back({label, m.bandwidth});
  }
  limits.positive_each("loop time", times, "s")
      .positive_each("measured bandwidth", bandwidths, "B/s",
                     "left out of b_eff and the figures of its pattern and size");
  std::vector<worker::LabelledValue> patterns;
  for (std::size_t p = 0; p < b_pattern.size(); ++p) {
    if (b_pattern[p].value)
      patterns.push_back({"pattern " + std::to_string(p), *b_pattern[p].value});
  }
  limits.positive_each("b_pat", patterns, "B/s");
  for (const auto& [name, figure, unit] :
       {std::tuple<const char*, const Figure*, const char*>{"b_ring", &b_ring, "B/s"},
        {"b_random", &b_random, "B/s"},
        {"b_eff", &b_eff, "B/s"},
        {"b_ring at L_max", &b_ring_at_lmax, "B/s"},
        {"b_random at L_max", &b_random_at_lmax, "B/s"},
        {"b_eff at L_max", &b_eff_at_lmax, "B/s"},
        {"latency (rings and random)", &latency_rings_random, "s"},
        {"latency (rings)", &latency_rings, "s"},
        {"ping-pong latency", &latency_pingpong, "s"},
        {"ping-pong bandwidth", &pingpong_bandwidth, "B/s"}}) {
    if (figure->value) limits.positive(name, *figure->value, unit);
  }
  return limits;
}

}  // namespace pbench::comm
