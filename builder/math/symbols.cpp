// Symbol, spacing and accent tables: TeX command name to MathML token text and class.
#include "math/symbols.hpp"

#include <array>

namespace bb::math {

namespace {

using enum SymbolClass;

constexpr std::array kSymbols = std::to_array<Symbol>({
    // Greek, small (italic, like other variables) and capital (upright in TeX).
    {"alpha", "α", Ordinary},
    {"beta", "β", Ordinary},
    {"gamma", "γ", Ordinary},
    {"delta", "δ", Ordinary},
    {"epsilon", "ϵ", Ordinary},
    {"varepsilon", "ε", Ordinary},
    {"zeta", "ζ", Ordinary},
    {"eta", "η", Ordinary},
    {"theta", "θ", Ordinary},
    {"vartheta", "ϑ", Ordinary},
    {"iota", "ι", Ordinary},
    {"kappa", "κ", Ordinary},
    {"lambda", "λ", Ordinary},
    {"mu", "μ", Ordinary},
    {"nu", "ν", Ordinary},
    {"xi", "ξ", Ordinary},
    {"pi", "π", Ordinary},
    {"varpi", "ϖ", Ordinary},
    {"rho", "ρ", Ordinary},
    {"varrho", "ϱ", Ordinary},
    {"sigma", "σ", Ordinary},
    {"varsigma", "ς", Ordinary},
    {"tau", "τ", Ordinary},
    {"upsilon", "υ", Ordinary},
    {"phi", "ϕ", Ordinary},
    {"varphi", "φ", Ordinary},
    {"chi", "χ", Ordinary},
    {"psi", "ψ", Ordinary},
    {"omega", "ω", Ordinary},
    {"Gamma", "Γ", Upright},
    {"Delta", "Δ", Upright},
    {"Theta", "Θ", Upright},
    {"Lambda", "Λ", Upright},
    {"Xi", "Ξ", Upright},
    {"Pi", "Π", Upright},
    {"Sigma", "Σ", Upright},
    {"Upsilon", "Υ", Upright},
    {"Phi", "Φ", Upright},
    {"Psi", "Ψ", Upright},
    {"Omega", "Ω", Upright},
    // Other ordinary symbols.
    {"ell", "ℓ", Ordinary},
    {"hbar", "ℏ", Ordinary},
    {"infty", "∞", Ordinary},
    {"partial", "∂", Ordinary},
    {"nabla", "∇", Ordinary},
    {"emptyset", "∅", Ordinary},
    {"varnothing", "∅", Ordinary},
    {"prime", "′", Operator},
    {"forall", "∀", Ordinary},
    {"exists", "∃", Ordinary},
    {"neg", "¬", Ordinary},
    {"lnot", "¬", Ordinary},
    {"%", "%", Ordinary},
    {"#", "#", Ordinary},
    {"_", "_", Ordinary},
    {"$", "$", Ordinary},
    {"&", "&", Operator},
    {"angle", "∠", Ordinary},
    {"triangle", "△", Ordinary},
    {"top", "⊤", Ordinary},
    {"bot", "⊥", Ordinary},
    // Dots.
    {"ldots", "…", Operator},
    {"dots", "…", Operator},
    {"cdots", "⋯", Operator},
    {"vdots", "⋮", Operator},
    {"ddots", "⋱", Operator},
    // Binary operators.
    {"times", "×", Operator},
    {"cdot", "⋅", Operator},
    {"pm", "±", Operator},
    {"mp", "∓", Operator},
    {"div", "÷", Operator},
    {"ast", "∗", Operator},
    {"star", "⋆", Operator},
    {"circ", "∘", Operator},
    {"bullet", "∙", Operator},
    {"oplus", "⊕", Operator},
    {"ominus", "⊖", Operator},
    {"otimes", "⊗", Operator},
    {"odot", "⊙", Operator},
    {"cup", "∪", Operator},
    {"cap", "∩", Operator},
    {"wedge", "∧", Operator},
    {"land", "∧", Operator},
    {"vee", "∨", Operator},
    {"lor", "∨", Operator},
    {"setminus", "∖", Operator},
    {"bmod", "mod", Operator},
    // Relations.
    {"le", "≤", Operator},
    {"leq", "≤", Operator},
    {"ge", "≥", Operator},
    {"geq", "≥", Operator},
    {"ne", "≠", Operator},
    {"neq", "≠", Operator},
    {"approx", "≈", Operator},
    {"equiv", "≡", Operator},
    {"sim", "∼", Operator},
    {"simeq", "≃", Operator},
    {"cong", "≅", Operator},
    {"propto", "∝", Operator},
    {"ll", "≪", Operator},
    {"gg", "≫", Operator},
    {"in", "∈", Operator},
    {"notin", "∉", Operator},
    {"ni", "∋", Operator},
    {"subset", "⊂", Operator},
    {"subseteq", "⊆", Operator},
    {"supset", "⊃", Operator},
    {"supseteq", "⊇", Operator},
    {"mid", "∣", Operator},
    {"parallel", "∥", Operator},
    {"perp", "⊥", Operator},
    {"doteq", "≐", Operator},
    {"coloneqq", "≔", Operator},
    {"lt", "<", Operator},
    {"gt", ">", Operator},
    {"colon", ":", Operator},
    {"lesssim", "≲", Operator},
    {"gtrsim", "≳", Operator},
    {"prec", "≺", Operator},
    {"succ", "≻", Operator},
    // Arrows.
    {"to", "→", Operator},
    {"rightarrow", "→", Operator},
    {"leftarrow", "←", Operator},
    {"gets", "←", Operator},
    {"leftrightarrow", "↔", Operator},
    {"Rightarrow", "⇒", Operator},
    {"Leftarrow", "⇐", Operator},
    {"Leftrightarrow", "⇔", Operator},
    {"longrightarrow", "⟶", Operator},
    {"longleftarrow", "⟵", Operator},
    {"Longrightarrow", "⟹", Operator},
    {"Longleftarrow", "⟸", Operator},
    {"Longleftrightarrow", "⟺", Operator},
    {"iff", "⟺", Operator},
    {"implies", "⟹", Operator},
    {"mapsto", "↦", Operator},
    {"uparrow", "↑", Operator},
    {"downarrow", "↓", Operator},
    // Delimiters.
    {"{", "{", Open},
    {"}", "}", Close},
    {"lbrace", "{", Open},
    {"rbrace", "}", Close},
    {"lceil", "⌈", Open},
    {"rceil", "⌉", Close},
    {"lfloor", "⌊", Open},
    {"rfloor", "⌋", Close},
    {"langle", "⟨", Open},
    {"rangle", "⟩", Close},
    {"lvert", "|", Open},
    {"rvert", "|", Close},
    {"lVert", "‖", Open},
    {"rVert", "‖", Close},
    {"vert", "|", Fence},
    {"Vert", "‖", Fence},
    {"|", "‖", Fence},
    {"backslash", "\\", Ordinary},
    // Large operators.
    {"sum", "∑", LargeOperator},
    {"prod", "∏", LargeOperator},
    {"coprod", "∐", LargeOperator},
    {"bigcup", "⋃", LargeOperator},
    {"bigcap", "⋂", LargeOperator},
    {"bigoplus", "⨁", LargeOperator},
    {"bigotimes", "⨂", LargeOperator},
    {"int", "∫", Integral},
    {"iint", "∬", Integral},
    {"iiint", "∭", Integral},
    {"oint", "∮", Integral},
    // Named functions.
    {"sin", "sin", Function},
    {"cos", "cos", Function},
    {"tan", "tan", Function},
    {"cot", "cot", Function},
    {"sec", "sec", Function},
    {"csc", "csc", Function},
    {"arcsin", "arcsin", Function},
    {"arccos", "arccos", Function},
    {"arctan", "arctan", Function},
    {"sinh", "sinh", Function},
    {"cosh", "cosh", Function},
    {"tanh", "tanh", Function},
    {"log", "log", Function},
    {"ln", "ln", Function},
    {"lg", "lg", Function},
    {"exp", "exp", Function},
    {"dim", "dim", Function},
    {"ker", "ker", Function},
    {"deg", "deg", Function},
    {"arg", "arg", Function},
    {"hom", "hom", Function},
    {"max", "max", LimitFunction},
    {"min", "min", LimitFunction},
    {"lim", "lim", LimitFunction},
    {"sup", "sup", LimitFunction},
    {"inf", "inf", LimitFunction},
    {"limsup", "lim sup", LimitFunction},
    {"liminf", "lim inf", LimitFunction},
    {"det", "det", LimitFunction},
    {"gcd", "gcd", LimitFunction},
    {"Pr", "Pr", LimitFunction},
});

struct Space {
  std::string_view name;
  std::string_view width;
};

// Widths in em as TeX sets them (mu = 1/18 em): thin 3mu, medium 4mu, thick 5mu; `\ ` and `~`
// are an interword space, about 1/3 em in Computer Modern.
constexpr std::array kSpaces = std::to_array<Space>({
    {",", "0.1667em"},
    {"thinspace", "0.1667em"},
    {":", "0.2222em"},
    {">", "0.2222em"},
    {"medspace", "0.2222em"},
    {";", "0.2778em"},
    {"thickspace", "0.2778em"},
    {"!", "-0.1667em"},
    {"negthinspace", "-0.1667em"},
    {" ", "0.3333em"},
    {"enspace", "0.5em"},
    {"quad", "1em"},
    {"qquad", "2em"},
});

constexpr std::array kAccents = std::to_array<Accent>({
    {"hat", "^", false, false, false},
    {"widehat", "^", false, true, false},
    {"bar", "¯", false, false, false},
    {"overline", "¯", false, true, false},
    {"tilde", "~", false, false, false},
    {"widetilde", "~", false, true, false},
    {"vec", "→", false, false, false},
    {"overrightarrow", "→", false, true, false},
    {"overleftarrow", "←", false, true, false},
    {"dot", "˙", false, false, false},
    {"ddot", "¨", false, false, false},
    {"check", "ˇ", false, false, false},
    {"breve", "˘", false, false, false},
    {"acute", "´", false, false, false},
    {"grave", "`", false, false, false},
    {"underline", "_", true, true, false},
    {"underbrace", "⏟", true, true, true},
    {"overbrace", "⏞", false, true, true},
});

}  // namespace

const Symbol* find_symbol(std::string_view name) {
  for (const Symbol& s : kSymbols)
    if (s.name == name) return &s;
  return nullptr;
}

const Symbol* find_symbol_by_text(std::string_view text) {
  for (const Symbol& s : kSymbols)
    if (s.text == text && s.cls != Function && s.cls != LimitFunction) return &s;
  return nullptr;
}

std::optional<std::string_view> find_space(std::string_view name) {
  for (const Space& s : kSpaces)
    if (s.name == name) return s.width;
  return std::nullopt;
}

const Accent* find_accent(std::string_view name) {
  for (const Accent& a : kAccents)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace bb::math
