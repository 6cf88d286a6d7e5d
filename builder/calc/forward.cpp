// The forward-call operator graph of the three adapters (Qwen3 dense, Qwen3 MoE, Llama 3 70B).
// Counts are per occurrence; totals multiply by `repeats` (the layer count for per-layer operators).
#include "calc/forward.hpp"

#include "calc/error.hpp"

namespace bb::calc {
namespace {

Json shape(std::initializer_list<Int> dims) {
  Json a = Json::array();
  for (Int d : dims) a.push_back(d.value());
  return a;
}

void add_special(Counter& c, const std::string& name, Int v) {
  for (auto& [k, total] : c)
    if (k == name) {
      total += v;
      return;
    }
  c.emplace_back(name, v);
}

class GraphBuilder {
 public:
  GraphBuilder(const ModelDims& d, const ForwardScenario& s) : d_(d), s_(s) {}
  std::vector<Operator> ops;

  Operator& add(std::string name, std::string category, Int repeats, Json shapes, std::string notes) {
    Operator op;
    op.name = std::move(name);
    op.category = std::move(category);
    op.repeats = repeats;
    op.shapes = std::move(shapes);
    op.notes = std::move(notes);
    ops.push_back(std::move(op));
    return ops.back();
  }
  // Y[M,N] = X[M,K] W[K,N]: FMA counts 2 FLOPs; weight, input and output each move once.
  void linear(std::string name, Int M, Int K, Int N, Int repeats) {
    Operator& op = add(std::move(name), "linear", repeats,
                       Json{{"input", shape({M, K})},
                            {"weight_math", shape({K, N})},
                            {"weight_storage", shape({N, K})},
                            {"output", shape({M, N})}},
                       "Separate GEMM: weight and input read once, output written once (operand payload); "
                       "tile re-reads are not predicted.");
    op_matrix(op, Int(2) * M * K * N);
    op.weight_read_bytes = K * N * s_.weight_bytes;
    op.activation_read_bytes = M * K * s_.activation_bytes;
    op.activation_write_bytes = M * N * s_.activation_bytes;
  }
  void rmsnorm(std::string name, Int rows, Int D, Int repeats) {
    Operator& op =
        add(std::move(name), "normalization", repeats,
            Json{{"input", shape({rows, D})}, {"weight", shape({D})}, {"output", shape({rows, D})}},
            "Algebraic count of a row-wise FP32 reduction; rsqrt and casts listed separately, "
            "no HBM spill of temporaries assumed.");
    op.scalar_flops = rows * (Int(4) * D + 1);
    add_special(op.special_ops, "rsqrt", rows);
    if (d_.adapter == Adapter::Llama) add_special(op.special_ops, "cast_elements", Int(2) * rows * D);
    op.weight_read_bytes = D * s_.weight_bytes;
    op.activation_read_bytes = rows * D * s_.activation_bytes;
    op.activation_write_bytes = rows * D * s_.activation_bytes;
  }

 private:
  static void op_matrix(Operator& op, Int flops) { op.matrix_flops = flops; }
  const ModelDims& d_;
  const ForwardScenario& s_;
};

std::vector<Int> histogram(const ModelDims& d, Int rows, const Routing& r) {
  std::vector<Int> counts;
  Int assignments = rows * d.top_k;
  if (r.mode == "balanced") {
    Int q = assignments / d.experts, rem = assignments % d.experts;
    for (Int e = 0; e < d.experts; e += 1) counts.push_back(q + (e < rem ? 1 : 0));
  } else if (r.mode == "concentrated") {
    for (Int e = 0; e < d.experts; e += 1) counts.push_back(e < d.top_k ? rows : Int(0));
  } else if (r.mode == "counts") {
    if (Int(static_cast<std::int64_t>(r.counts.size())) != d.experts)
      throw Error("routing counts: expected " + std::to_string(d.experts.value()) + " experts, got " +
                  std::to_string(r.counts.size()));
    Int sum = 0;
    for (Int c : r.counts) {
      if (c < 0 || c > rows)
        throw Error("routing counts: each expert count must be between 0 and B*T = " +
                    std::to_string(rows.value()));
      sum += c;
    }
    if (sum != assignments)
      throw Error("routing counts: sum " + std::to_string(sum.value()) +
                  " differs from B*T*top_k = " + std::to_string(assignments.value()));
    counts = r.counts;
  } else {
    throw Error("unknown routing '" + r.mode + "' (use balanced or concentrated)");
  }
  return counts;
}

void check_scenario(const ModelDims& d, const ForwardScenario& s) {
  if (s.batch < 1) throw Error("batch must be a positive integer");
  if (s.tokens < 1) throw Error("tokens must be a positive integer");
  if (s.history < 0) throw Error("history must be zero or a positive integer");
  for (auto [name, v] : {std::pair{"weight_bytes", s.weight_bytes},
                         {"activation_bytes", s.activation_bytes},
                         {"kv_bytes", s.kv_bytes},
                         {"score_bytes", s.score_bytes}}) {
    if (v < 1) throw Error(std::string(name) + " must be a positive integer");
    if (d.adapter == Adapter::Llama && v != 1 && v != 2 && v != 4 && v != 8)
      throw Error(std::string(name) + " must be 1, 2, 4 or 8 bytes");
  }
  if (s.output_head != "last" && s.output_head != "all" && s.output_head != "none")
    throw Error("output_head must be last, all or none");
  if (s.history + s.tokens > d.max_positions)
    throw Error("history + tokens = " + std::to_string((s.history + s.tokens).value()) +
                " exceeds max_position_embeddings = " + std::to_string(d.max_positions.value()) + " of " +
                d.id);
}

// The sizes one forward call derives from the model and the scenario, named as the formulas name them.
struct Sizes {
  Int B, S, T;      // batch, history, new tokens
  Int w, a, k, sb;  // bytes per weight, activation, KV and score element
  Int h, f, L, qh, kh, hd, V;
  Int m, ctx;             // rows (B*T), context (S+T)
  Int pairs, rect_pairs;  // causal and rectangular query-key pairs
  Int head_rows;          // rows through the LM head
  Int qw, kvw;            // query and key/value widths
  Int valid, rect, stb;   // valid and rectangular score elements, score tensor bytes
  bool llama;
};

Sizes sizes_of(const ModelDims& d, const ForwardScenario& s) {
  Sizes z;
  z.B = s.batch, z.S = s.history, z.T = s.tokens;
  z.w = s.weight_bytes, z.a = s.activation_bytes, z.k = s.kv_bytes, z.sb = s.score_bytes;
  z.h = d.hidden, z.f = d.intermediate, z.L = d.layers, z.qh = d.heads, z.kh = d.kv_heads, z.hd = d.head_dim;
  z.V = d.vocab;
  z.m = z.B * z.T;
  z.ctx = z.S + z.T;
  z.pairs = z.B * (z.T * z.S + z.T * (z.T + 1) / 2);
  z.rect_pairs = z.m * z.ctx;
  z.head_rows = s.output_head == "none" ? Int(0) : s.output_head == "last" ? z.B : z.m;
  z.qw = z.qh * z.hd, z.kvw = z.kh * z.hd;
  z.valid = z.qh * z.pairs, z.rect = z.qh * z.rect_pairs, z.stb = z.rect * z.sb;
  z.llama = d.adapter == Adapter::Llama;
  return z;
}

// The token embedding and the rotary table, once per call.
void add_embedding_and_rope(GraphBuilder& g, const Sizes& z) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  {
    Operator& op =
        g.add("embedding", "embedding", 1,
              Json{{"indices", shape({B, T})}, {"table", shape({V, h})}, {"output", shape({m, h})}},
              "One row lookup per token, not the whole vocabulary; int64 token ids; "
              "no caching of repeated tokens assumed.");
    op.weight_read_bytes = m * h * w;
    op.activation_read_bytes = m * 8;
    op.activation_write_bytes = m * h * a;
  }
  if (llama) {
    Operator& op = g.add("llama3_rope_table", "position", 1,
                         Json{{"frequencies", shape({T, hd / 2})}, {"cos_sin_each", shape({T, hd})}},
                         "Batch-1 position ids shared by all layers; llama3 frequency scaling is fixed at "
                         "load time and reported apart from the totals.");
    op.scalar_flops = T * hd / 2 + Int(2) * T * hd;
    add_special(op.special_ops, "sin", T * hd);
    add_special(op.special_ops, "cos", T * hd);
    add_special(op.special_ops, "cast_elements", Int(2) * T * hd);
    add_special(op.special_ops, "concat_elements", T * hd);
    op.activation_read_bytes = Int(4) * (hd / 2) + Int(8) * T;
    op.activation_write_bytes = Int(2) * T * hd * a;
  } else {
    Operator& op = g.add("rope_table", "position", 1,
                         Json{{"frequencies", shape({T, hd / 2})}, {"cos_sin_each", shape({T, hd})}},
                         "Shared by the batch (same position ids) and reused by every layer; inv_freq "
                         "initialization is not counted.");
    op.scalar_flops = T * hd / 2;
    add_special(op.special_ops, "sin", T * hd);
    add_special(op.special_ops, "cos", T * hd);
    op.activation_read_bytes = (hd / 2) * 4 + T * 8;
    op.activation_write_bytes = Int(2) * T * hd * a;
  }
}

void add_residual(GraphBuilder& g, const Sizes& z, const char* name) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  Operator& op = g.add(name, "residual", L, Json{{"inputs_each", shape({m, h})}, {"output", shape({m, h})}},
                       "Elementwise add of the block output to the residual stream.");
  op.scalar_flops = m * h;
  op.activation_read_bytes = Int(2) * m * h * a;
  op.activation_write_bytes = m * h * a;
}

// A layer's attention half: norm, projections, rotary, KV append, scores, softmax, PV, output
// projection, residual and the post-attention norm.
void add_attention(GraphBuilder& g, const Sizes& z) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  g.rmsnorm("input_layernorm", m, h, L);
  g.linear("q_proj", m, h, qw, L);
  g.linear("k_proj", m, h, kvw, L);
  g.linear("v_proj", m, h, kvw, L);
  if (!llama) {
    g.rmsnorm("q_norm", m * qh, hd, L);
    g.rmsnorm("k_norm", m * kh, hd, L);
  }
  {
    const Int E = m * (qw + kvw);
    Operator& op =
        g.add("apply_rope", "position", L, Json{{"Q", shape({B, qh, T, hd})}, {"K", shape({B, kh, T, hd})}},
              "rotate_half: two multiplies and one add per element, half the elements negated.");
    op.scalar_flops = Int(3) * E;
    add_special(op.special_ops, "negate", E / 2);
    op.activation_read_bytes = E * a + Int(2) * T * hd * a;
    op.activation_write_bytes = E * a;
  }
  {
    Operator& op = g.add("kv_append", "state", L, Json{{"new_K_and_V_each", shape({B, kh, T, hd})}},
                         "New K and V rows written to the cache at kv_bytes per element.");
    op.activation_read_bytes = Int(2) * m * kvw * a;
    op.activation_write_bytes = Int(2) * m * kvw * k;
  }
  {
    Operator& op = g.add("qk", "attention", L,
                         Json{{"Q", shape({B, qh, T, hd})},
                              {"K_shared", shape({B, kh, ctx, hd})},
                              {"scores_rectangular", shape({B, qh, T, ctx})}},
                         "Matrix FLOPs count valid causal pairs only; the score tensor is materialized "
                         "rectangular at score_bytes; GQA sharing is not expanded.");
    op.matrix_flops = Int(2) * valid * hd;
    op.activation_read_bytes = m * qw * a + B * ctx * kvw * k;
    op.activation_write_bytes = stb;
  }
  {
    Operator& op = g.add("score_scale_mask_softmax", "softmax", L, Json{{"scores", shape({B, qh, T, ctx})}},
                         "Scale, causal mask and a numerically stable softmax over valid pairs; one mask "
                         "decision per rectangular element.");
    op.scalar_flops = Int(4) * valid - m * qh;
    add_special(op.special_ops, "exp", valid);
    add_special(op.special_ops, "compare_max", valid - m * qh);
    add_special(op.special_ops, "mask_decisions", rect);
    op.activation_read_bytes = stb;
    op.activation_write_bytes = stb;
  }
  {
    Operator& op = g.add("pv", "attention", L,
                         Json{{"P", shape({B, qh, T, ctx})},
                              {"V_shared", shape({B, kh, ctx, hd})},
                              {"output", shape({B, qh, T, hd})}},
                         "Probabilities times V over valid causal pairs; reads the materialized rectangle.");
    op.matrix_flops = Int(2) * valid * hd;
    op.activation_read_bytes = stb + B * ctx * kvw * k;
    op.activation_write_bytes = m * qw * a;
  }
  g.linear("o_proj", m, qw, h, L);
  add_residual(g, z, "attention_residual");
  g.rmsnorm("post_attention_layernorm", m, h, L);
}

// A MoE layer's feed-forward half: router, routing, the routed experts' grouped GEMMs; returns the
// MoE figures of the summary and sets `counts` to the rows each expert gets.
Json add_moe(GraphBuilder& g, const ModelDims& d, const Sizes& z, const Routing* routing,
             std::vector<Int>& counts) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  Json moe_summary = Json::object();
  const Int E = d.experts, K = d.top_k, fe = d.expert_intermediate;
  Routing r = routing ? *routing : Routing{};
  counts = histogram(d, m, r);
  Int A = 0, U = 0;
  for (Int c : counts) {
    A += c;
    if (c > 0) U += 1;
  }
  g.linear("router", m, h, E, L);
  {
    Operator& op = g.add("router_softmax", "router", L, Json{{"logits", shape({m, E})}},
                         "FP32 softmax over all experts per token.");
    op.scalar_flops = m * (Int(3) * E - 1);
    add_special(op.special_ops, "exp", m * E);
    add_special(op.special_ops, "compare_max", m * (E - 1));
    op.activation_read_bytes = m * E * a;
    op.activation_write_bytes = m * E * 4;
  }
  {
    Operator& op =
        g.add("router_topk", "router", L, Json{{"probabilities", shape({m, E})}, {"selected", shape({m, K})}},
              "Selection only: no FLOPs; FP32 values and int64 indices written.");
    add_special(op.special_ops, "topk_rows", m);
    add_special(op.special_ops, "topk_candidates", m * E);
    op.activation_read_bytes = m * E * 4;
    op.activation_write_bytes = m * K * (4 + 8);
  }
  {
    Operator& op = g.add(d.norm_topk_prob ? "router_renormalize_cast" : "router_cast", "router", L,
                         Json{{"weights", shape({m, K})}},
                         "Top-k weights renormalized to sum 1 (when norm_topk_prob) and cast to the "
                         "activation type.");
    if (d.norm_topk_prob) op.scalar_flops = m * (Int(2) * K - 1);
    op.activation_read_bytes = m * K * 4;
    op.activation_write_bytes = m * K * a;
  }
  {
    Operator& op = g.add("routing_one_hot", "routing", L, Json{{"mask", shape({E, K, m})}},
                         "int64 one-hot expert mask, as the reference implementation builds it.");
    op.activation_read_bytes = m * K * 8;
    op.activation_write_bytes = m * K * E * 8;
  }
  {
    Operator& op = g.add("routing_where", "routing", L, Json{{"mask", shape({E, K, m})}},
                         "Per-expert scan of the mask producing (slot, token) int64 index pairs.");
    op.activation_read_bytes = m * K * E * 8;
    op.activation_write_bytes = A * 16;
  }
  {
    Operator& op = g.add("expert_gather", "moe", L, Json{{"rows", shape({A, h})}},
                         "Token rows gathered once per assignment.");
    op.activation_read_bytes = A * 8 + A * h * a;
    op.activation_write_bytes = A * h * a;
  }
  // Init-captures: clang before 16 cannot capture structured bindings (P1091/P1381).
  auto expert_linear = [&g, &A, &U, L = L, w = w, a = a](const char* name, Int K_, Int N_) {
    Operator& op = g.add(name, "linear", L,
                         Json{{"input", shape({A, K_})},
                              {"weight_math_each", shape({K_, N_})},
                              {"weight_storage_each", shape({N_, K_})},
                              {"output", shape({A, N_})},
                              {"experts_used", U.value()}},
                         "Grouped GEMM over routed rows; each used expert's weight is read once.");
    op.matrix_flops = Int(2) * A * K_ * N_;
    op.weight_read_bytes = U * K_ * N_ * w;
    op.activation_read_bytes = A * K_ * a;
    op.activation_write_bytes = A * N_ * a;
  };
  expert_linear("expert_gate_proj", h, fe);
  expert_linear("expert_up_proj", h, fe);
  {
    Operator& op = g.add("expert_silu_mul", "activation", L,
                         Json{{"gate", shape({A, fe})}, {"up", shape({A, fe})}, {"output", shape({A, fe})}},
                         "SiLU(gate) * up on routed rows.");
    op.scalar_flops = Int(4) * A * fe;
    add_special(op.special_ops, "exp", A * fe);
    add_special(op.special_ops, "negate", A * fe);
    op.activation_read_bytes = Int(2) * A * fe * a;
    op.activation_write_bytes = A * fe * a;
  }
  expert_linear("expert_down_proj", fe, h);
  {
    Operator& op = g.add("expert_probability_multiply", "moe", L, Json{{"rows", shape({A, h})}},
                         "Expert output scaled by its routing weight (indexed by slot and token).");
    op.scalar_flops = A * h;
    op.activation_read_bytes = A * h * a + A * a + A * 16;
    op.activation_write_bytes = A * h * a;
  }
  {
    Operator& op = g.add("expert_output_zero", "moe", L, Json{{"output", shape({m, h})}},
                         "Zero-initialized accumulation buffer.");
    op.activation_write_bytes = m * h * a;
  }
  {
    Operator& op =
        g.add("expert_index_add", "moe", L, Json{{"rows", shape({A, h})}, {"output", shape({m, h})}},
              "index_add_ into the token rows: reads source and destination rows.");
    op.scalar_flops = A * h;
    op.activation_read_bytes = A * 8 + Int(2) * A * h * a;
    op.activation_write_bytes = A * h * a;
  }
  moe_summary["expert_assignments_per_layer"] = A.value();
  moe_summary["expert_union_per_layer"] = U.value();
  moe_summary["routed_expert_total_parameters"] = (Int(3) * L * E * h * fe).value();
  moe_summary["routed_expert_active_parameters_per_token"] = (Int(3) * L * K * h * fe).value();
  moe_summary["routed_expert_matrix_flops"] = (Int(6) * L * m * K * h * fe).value();
  moe_summary["routed_expert_unique_weight_payload_bytes"] = (Int(3) * L * U * h * fe * w).value();
  moe_summary["router_matrix_flops"] = (Int(2) * L * m * h * E).value();
  return moe_summary;
}

// A dense layer's feed-forward half: gate and up projections, SiLU, down projection.
void add_dense_mlp(GraphBuilder& g, const Sizes& z) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  g.linear("gate_proj", m, h, f, L);
  g.linear("up_proj", m, h, f, L);
  Operator& op = g.add("silu_mul", "activation", L,
                       Json{{"gate", shape({m, f})}, {"up", shape({m, f})}, {"output", shape({m, f})}},
                       "SiLU(gate) * up: x/(1+exp(-x)) then a multiply.");
  op.scalar_flops = Int(4) * m * f;
  add_special(op.special_ops, "exp", m * f);
  add_special(op.special_ops, "negate", m * f);
  op.activation_read_bytes = Int(2) * m * f * a;
  op.activation_write_bytes = m * f * a;
  g.linear("down_proj", m, f, h, L);
}

// The weight tensors, in the reference tool's order (attention and norms, then the MLP).
std::vector<WeightTensor> weights_of(const ModelDims& d, const Sizes& z) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  std::vector<WeightTensor> W;
  W.push_back({"model.embed_tokens.weight", {V, h}, 1, ""});
  W.push_back({"model.layers.{layer}.self_attn.q_proj.weight", {qw, h}, L, ""});
  W.push_back({"model.layers.{layer}.self_attn.k_proj.weight", {kvw, h}, L, ""});
  W.push_back({"model.layers.{layer}.self_attn.v_proj.weight", {kvw, h}, L, ""});
  W.push_back({"model.layers.{layer}.self_attn.o_proj.weight", {h, qw}, L, ""});
  if (!llama) {
    W.push_back({"model.layers.{layer}.self_attn.q_norm.weight", {hd}, L, ""});
    W.push_back({"model.layers.{layer}.self_attn.k_norm.weight", {hd}, L, ""});
  }
  W.push_back({"model.layers.{layer}.input_layernorm.weight", {h}, L, ""});
  W.push_back({"model.layers.{layer}.post_attention_layernorm.weight", {h}, L, ""});
  W.push_back({"model.norm.weight", {h}, 1, ""});
  if (!d.tied) W.push_back({"lm_head.weight", {V, h}, 1, ""});
  if (d.adapter == Adapter::Qwen3Moe) {
    const Int E = d.experts, fe = d.expert_intermediate;
    W.push_back({"model.layers.{layer}.mlp.gate.weight", {E, h}, L, "router"});
    W.push_back({"model.layers.{layer}.mlp.experts.{expert}.gate_proj.weight", {fe, h}, L * E, ""});
    W.push_back({"model.layers.{layer}.mlp.experts.{expert}.up_proj.weight", {fe, h}, L * E, ""});
    W.push_back({"model.layers.{layer}.mlp.experts.{expert}.down_proj.weight", {h, fe}, L * E, ""});
  } else {
    W.push_back({"model.layers.{layer}.mlp.gate_proj.weight", {f, h}, L, ""});
    W.push_back({"model.layers.{layer}.mlp.up_proj.weight", {f, h}, L, ""});
    W.push_back({"model.layers.{layer}.mlp.down_proj.weight", {h, f}, L, ""});
  }
  return W;
}

// The totals over the operators and the weights.
Json summary_of(const ForwardResult& res, const Sizes& z, const Json& moe_summary) {
  [[maybe_unused]] const auto& [B, S, T, w, a, k, sb, h, f, L, qh, kh, hd, V, m, ctx, pairs, rect_pairs,
                                head_rows, qw, kvw, valid, rect, stb, llama] = z;
  Json sum = Json::object();
  Int P = 0;
  for (const auto& t : res.weights) {
    Int n = t.copies;
    for (Int x : t.shape) n *= x;
    P += n;
  }
  Int backbone = 0, matrix = 0, scalar = 0, wread = 0, aread = 0, awrite = 0;
  Counter special;
  for (const auto& op : res.operators) {
    Int mf = op.matrix_flops * op.repeats;
    matrix += mf;
    if (op.category == "linear" && op.name != "lm_head") backbone += mf;
    scalar += op.scalar_flops * op.repeats;
    for (const auto& [name, v] : op.special_ops) add_special(special, name, v * op.repeats);
    wread += op.weight_read_bytes * op.repeats;
    aread += op.activation_read_bytes * op.repeats;
    awrite += op.activation_write_bytes * op.repeats;
  }
  const Int kvpt = Int(2) * L * kvw * k;
  Json sp = Json::object();
  for (const auto& [name, v] : special) sp[name] = v.value();
  sum["parameters"] = P.value();
  sum["weight_resident_bytes"] = (P * w).value();
  sum["backbone_projection_ffn_flops"] = backbone.value();
  sum["causal_attention_matrix_flops"] = (Int(4) * valid * hd * L).value();
  sum["rectangular_attention_matrix_flops"] = (Int(4) * rect * hd * L).value();
  sum["matrix_flops"] = matrix.value();
  sum["scalar_flops"] = scalar.value();
  sum["special_ops"] = sp;
  sum["weight_read_once_per_operator_bytes"] = wread.value();
  sum["activation_operand_read_bytes"] = aread.value();
  sum["activation_operand_write_bytes"] = awrite.value();
  sum["kv_bytes_per_token_per_request"] = kvpt.value();
  sum["kv_resident_before_bytes"] = (B * S * kvpt).value();
  sum["kv_resident_after_bytes"] = (B * ctx * kvpt).value();
  sum["kv_new_write_bytes"] = (B * T * kvpt).value();
  sum["kv_existing_history_unique_payload_bytes"] = (B * S * kvpt).value();
  sum["kv_attention_unique_payload_bytes"] = (B * ctx * kvpt).value();
  sum["kv_logical_query_head_operand_bytes"] = (Int(2) * valid * hd * k * L).value();
  sum["attention_score_tensor_per_layer_bytes"] = stb.value();
  sum["materialized_scores_probabilities_io_all_layers_bytes"] = (Int(4) * stb * L).value();
  sum["minimum_required_weight_and_kv_bytes"] = (P * w + B * ctx * kvpt).value();
  for (const auto& [key, v] : moe_summary.items()) sum[key] = v;
  return sum;
}

}  // namespace

ForwardResult compute_forward(const ModelDims& d, const ForwardScenario& s, const Routing* routing) {
  check_scenario(d, s);
  if (routing && is_dense(d.adapter))
    throw Error("model " + d.id + " is dense (" + d.model_type +
                "): routing options apply only to MoE models");
  ForwardResult res;
  res.dims = d;
  res.scenario = s;
  if (routing) res.routing = *routing;
  const Sizes z = sizes_of(d, s);

  GraphBuilder g(d, s);
  add_embedding_and_rope(g, z);
  add_attention(g, z);
  Json moe_summary = Json::object();
  if (d.adapter == Adapter::Qwen3Moe)
    moe_summary = add_moe(g, d, z, routing, res.routing.counts);
  else
    add_dense_mlp(g, z);
  add_residual(g, z, "ffn_residual");
  g.rmsnorm("final_norm", z.m, z.h, 1);
  if (z.head_rows > 0) g.linear("lm_head", z.head_rows, z.h, z.V, 1);
  res.operators = std::move(g.ops);
  res.weights = weights_of(d, z);
  res.summary = summary_of(res, z, moe_summary);
  return res;
}

}  // namespace bb::calc
