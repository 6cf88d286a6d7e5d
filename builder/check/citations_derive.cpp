// Numbers derived from two cited fields (see citations_derive.hpp).
#include "check/citations_derive.hpp"

#include <cmath>

#include "check/citations.hpp"

namespace bb::check {

const char* derive_name(DeriveOp op) {
  switch (op) {
    case DeriveOp::Ratio: return "ratio";
    case DeriveOp::Complement: return "complement";
    case DeriveOp::Difference: return "difference";
    case DeriveOp::Sum: return "sum";
  }
  return "ratio";
}

std::optional<DeriveOp> derive_op(const std::string& name) {
  for (DeriveOp op : {DeriveOp::Ratio, DeriveOp::Complement, DeriveOp::Difference, DeriveOp::Sum})
    if (name == derive_name(op)) return op;
  return std::nullopt;
}

std::optional<ResultField> derive_field(DeriveOp op, const ResultField& a, const ResultField& b) {
  // Only like quantities combine: seconds with seconds, bytes per token with bytes per token.
  if (a.dim != b.dim || a.per != b.per) return std::nullopt;
  ResultField out;
  out.dim = a.dim;
  out.per = a.per;
  switch (op) {
    case DeriveOp::Ratio:
    case DeriveOp::Complement:
      if (b.value == 0) return std::nullopt;
      out.dim = Dim::Count;
      out.per = false;
      out.value = op == DeriveOp::Ratio ? a.value / b.value : 1 - a.value / b.value;
      break;
    case DeriveOp::Difference: out.value = a.value - b.value; break;
    case DeriveOp::Sum: out.value = a.value + b.value; break;
  }
  if (!std::isfinite(out.value)) return std::nullopt;
  out.raw = out.value;
  return out;
}

std::optional<Derivation> unique_derivation(const TypedNumber& n, const std::vector<FieldRef>& fields) {
  // One significant digit ("2 ms", "4 倍") matches too much by chance to count as a derivation.
  if (n.value <= 0 || n.half_step <= 0 || n.half_step > 0.05 * n.value) return std::nullopt;
  std::optional<Derivation> found;
  int matches = 0;
  for (std::size_t i = 0; i < fields.size(); ++i)
    for (std::size_t j = 0; j < fields.size(); ++j) {
      const ResultField& a = *fields[i].second;
      const ResultField& b = *fields[j].second;
      // Two fields of one value derive nothing the text would state (their ratio is 1, their
      // difference 0).
      if (i == j || a.value == b.value) continue;
      for (DeriveOp op : {DeriveOp::Ratio, DeriveOp::Complement, DeriveOp::Difference, DeriveOp::Sum}) {
        if (op == DeriveOp::Sum && j < i) continue;  // a + b once
        auto d = derive_field(op, a, b);
        if (!d || d->value <= 0 || !states(n, *d)) continue;
        if (++matches > 1) return std::nullopt;
        found = Derivation{op, fields[i], fields[j], *d};
      }
    }
  return found;
}

}  // namespace bb::check
