#include "mc/dve/import.h"

#include "mc/dve/lower.h"
#include "mc/dve/parser.h"

namespace tandem {

std::unique_ptr<ir::Program> importDve(const SourceFile& file, Diagnostics& diags) {
  auto model = dve::parse(file, diags);
  if (!model || diags.hasErrors()) return nullptr;
  auto prog = std::make_unique<ir::Program>();
  prog->file = file.path();
  prog->types = std::make_unique<TypeTable>();
  prog->exprs = std::make_unique<ExprManager>(*prog->types);
  if (!dve::lowerModel(*model, *prog, diags)) return nullptr;
  return prog;
}

}  // namespace tandem
