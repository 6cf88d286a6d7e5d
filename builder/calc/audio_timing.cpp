// `audio-chunk-timing`: audio chunks through a serial model stage and a serial send link, played behind a
// jitter buffer; deadline misses, stalls, the ready-queue peak and an optional mute-only interruption.
// Ported from the real book's calculations/src/infra_calc/topics/audio_timing.py (bojieli/ai-infra-book).
#include <map>
#include <optional>

#include "calc/calculations.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

struct AudioInput {
  Int frame_ns = 20000000, send_ns = 1000000, jitter_buffer_ns = 40000000, sample_rate = 24000, channels = 1,
      sample_bytes = 2, control_delay_ns = 5000000, device_quantum_ns = 10000000;
  std::vector<Int> model_ns, network_delay_ns;
  std::optional<Int> interrupt_ns;
};

AudioInput read_input(const Json& s) {
  AudioInput in;
  auto get = [&](const char* key, Int& field, bool allow_zero) {
    if (s.contains(key) && !s[key].is_null()) field = positive_int(s[key], key, allow_zero);
  };
  get("frame_ns", in.frame_ns, false);
  get("sample_rate", in.sample_rate, false);
  get("channels", in.channels, false);
  get("sample_bytes", in.sample_bytes, false);
  get("device_quantum_ns", in.device_quantum_ns, false);
  get("send_ns", in.send_ns, true);
  get("jitter_buffer_ns", in.jitter_buffer_ns, true);
  get("control_delay_ns", in.control_delay_ns, true);
  if (s.contains("interrupt_ns") && !s["interrupt_ns"].is_null())
    in.interrupt_ns = positive_int(s["interrupt_ns"], "interrupt_ns", true);
  const bool durations = s.contains("model_ns") && !s["model_ns"].is_null();
  const bool delays = s.contains("network_delay_ns") && !s["network_delay_ns"].is_null();
  const Json& d = durations ? s["model_ns"] : Json();
  const Json& n = delays ? s["network_delay_ns"] : Json();
  if ((durations && (!d.is_array() || d.empty())) || (delays && !n.is_array()))
    throw Error("Model durations and network delays need equal nonempty lists");
  in.model_ns = durations ? positive_int_list(d, "model duration") : std::vector<Int>(8, Int(12000000));
  in.network_delay_ns =
      delays ? positive_int_list(n, "network delay", true)
             : std::vector<Int>{5000000, 5000000, 50000000, 5000000, 5000000, 5000000, 5000000, 5000000};
  if (in.network_delay_ns.size() != in.model_ns.size())
    throw Error("Model durations and network delays need equal nonempty lists");
  return in;
}

Json list(const std::vector<Int>& v) {
  Json out = Json::array();
  for (Int x : v) out.push_back(x.value());
  return out;
}

}  // namespace

Json audio_timing_recompute(const Data&, const Json& stored) {
  const AudioInput in = read_input(recorded_scenario(stored));
  const Int samples_numerator = in.sample_rate * in.frame_ns;
  if ((samples_numerator % Int(1000000000)).value() != 0)
    throw Error("Audio chunk duration must contain an integral number of samples");
  const Int chunk_bytes = samples_numerator / Int(1000000000) * in.channels * in.sample_bytes;
  Int model_free = 0, link_free = 0;
  Json rows = Json::array();
  for (std::size_t i = 0; i < in.model_ns.size(); ++i) {
    const Int capture = Int(static_cast<std::int64_t>(i) + 1) * in.frame_ns;
    const Int start = max(capture, model_free);
    model_free = start + in.model_ns[i];
    const Int send_start = max(model_free, link_free);
    link_free = send_start + in.send_ns;
    rows.push_back(Json{{"chunk", i},
                        {"capture_ready_ns", capture.value()},
                        {"model_start_ns", start.value()},
                        {"model_end_ns", model_free.value()},
                        {"send_start_ns", send_start.value()},
                        {"send_end_ns", link_free.value()},
                        {"arrival_ns", (link_free + in.network_delay_ns[i]).value()}});
  }
  const Int first_play = Int(rows[0]["arrival_ns"].get<std::int64_t>()) + in.jitter_buffer_ns;
  Int play_free = first_play, misses = 0, stall = 0, lateness_max = 0;
  std::map<std::int64_t, Int> events;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Json& row = rows[i];
    const Int arrival = row["arrival_ns"].get<std::int64_t>();
    const Int deadline = first_play + Int(static_cast<std::int64_t>(i)) * in.frame_ns;
    const Int start = max(play_free, arrival);
    row["deadline_ns"] = deadline.value();
    row["deadline_miss"] = arrival > deadline;
    row["playback_start_ns"] = start.value();
    row["playback_end_ns"] = (start + in.frame_ns).value();
    row["new_stall_ns"] = (start - play_free).value();
    row["playback_lateness_ns"] = (start - deadline).value();
    misses += arrival > deadline ? 1 : 0;
    stall += start - play_free;
    lateness_max = i == 0 ? start - deadline : max(lateness_max, start - deadline);
    play_free = start + in.frame_ns;
    // Reorder/ready queue only: a chunk leaves it when its playback starts, not when it ends.
    if (start > arrival) {
      events[arrival.value()] += chunk_bytes;
      events[start.value()] -= chunk_bytes;
    }
  }
  Int queued = 0, peak = 0;
  for (const auto& [at, delta] : events) {
    queued += delta;
    peak = max(peak, queued);
  }
  Json cutoff, to_mute, audible;
  if (in.interrupt_ns) {
    const Int c =
        ceil_div(*in.interrupt_ns + in.control_delay_ns, in.device_quantum_ns) * in.device_quantum_ns;
    Int heard = 0;
    for (const auto& r : rows) {
      const Int end = min(Int(r["playback_end_ns"].get<std::int64_t>()), c);
      const Int begin = max(Int(r["playback_start_ns"].get<std::int64_t>()), *in.interrupt_ns);
      heard += max(Int(0), end - begin);
    }
    cutoff = c.value();
    to_mute = (c - *in.interrupt_ns).value();
    audible = heard.value();
  }
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "audio-chunk-timing";
  doc["model"] = "";
  doc["scenario"] = Json{{"frame_ns", in.frame_ns.value()},
                         {"model_ns", list(in.model_ns)},
                         {"network_delay_ns", list(in.network_delay_ns)},
                         {"send_ns", in.send_ns.value()},
                         {"jitter_buffer_ns", in.jitter_buffer_ns.value()},
                         {"sample_rate", in.sample_rate.value()},
                         {"channels", in.channels.value()},
                         {"sample_bytes", in.sample_bytes.value()},
                         {"interrupt_ns", in.interrupt_ns ? Json(in.interrupt_ns->value()) : Json()},
                         {"control_delay_ns", in.control_delay_ns.value()},
                         {"device_quantum_ns", in.device_quantum_ns.value()}};
  doc["sources"] = Json::array();
  doc["audio_chunks"] = rows;
  const Int n = static_cast<std::int64_t>(rows.size());
  doc["summary"] = Json{{"chunks", n.value()},
                        {"frame_rate_per_second", true_div(Int(1000000000), in.frame_ns)},
                        {"pcm_chunk_bytes", chunk_bytes.value()},
                        {"source_audio_duration_ns", (n * in.frame_ns).value()},
                        {"first_playback_from_time_zero_ns", first_play.value()},
                        {"first_chunk_capture_to_playback_ns", (first_play - in.frame_ns).value()},
                        {"deadline_misses", misses.value()},
                        {"total_playback_stall_ns", stall.value()},
                        {"maximum_playback_lateness_ns", lateness_max.value()},
                        {"baseline_playback_finish_ns", play_free.value()},
                        {"baseline_ready_queue_peak_bytes", peak.value()},
                        {"mute_effective_ns", cutoff},
                        {"interrupt_to_mute_ns", to_mute},
                        {"audible_after_interrupt_ns", audible},
                        {"cancelled_gpu_work", nullptr}};
  doc["assumptions"] = Json::array({
      "Every duration is an explicit teaching input. A frame is ready once captured; the model stage and "
      "the send link are each serial, the stages overlap, and network delay varies per chunk (chunks may "
      "arrive out of order).",
      "Playback starts a fixed jitter buffer after chunk 0 arrives; deadlines are first playback + i x "
      "frame. "
      "A missing chunk stalls playback (nothing is dropped), shifting the rest.",
      "The ready queue holds chunks that arrived and have not started playing; the interruption only mutes "
      "the baseline playback at the next device quantum after interrupt + control delay and cancels no "
      "GPU work.",
  });
  return doc;
}

}  // namespace bb::calc
