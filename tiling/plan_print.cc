// Plans printed: as JSON (nlohmann-json, in the layout of every tiling file) and as the
// readable table of hostnn-tiling plan. Nothing here plans or checks (plan.cc).

#include <sstream>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json_util.h"

namespace hostnn {
namespace tiling {
namespace {

std::string S(int64_t v) { return std::to_string(v); }

Json UbJson(const std::vector<UbBuffer>& ub) {
  Json list = Json::array();
  for (const UbBuffer& b : ub)
    list.push_back({{"name", b.name}, {"bytes", b.bytes}, {"count", b.count}});
  return list;
}

std::string UbText(const std::vector<UbBuffer>& ub) {
  std::string text;
  for (const UbBuffer& b : ub) {
    text += (text.empty() ? "" : ", ") + b.name + " " + S(b.bytes) +
            (b.count > 1 ? " x" + S(b.count) : "");
  }
  return text;
}

// `label`, then `text` wrapped to 100 columns at `sep` (which stays at the end of a line),
// continuation lines indented `indent` columns.
std::string Wrap(const std::string& label, const std::string& text, size_t indent = 16,
                 const std::string& sep = " ") {
  std::string out = label, line;
  size_t width = 100 - label.size();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(sep, start);
    end = end == std::string::npos ? text.size() : end + sep.size();
    const std::string piece = text.substr(start, end - start);
    if (!line.empty() && line.size() + piece.size() > width) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
      width = 100 - indent;
    }
    line += piece;
    start = end;
  }
  return out + line + "\n";
}

// A gated linear unit's plan is over half of self along its split dim.
bool IsSplitOp(const std::string& snake_name) {
  Op op;
  return FindOp(snake_name, &op) && GetOpInfo(op).is_split;
}

std::string Plural(int64_t n, const char* what) { return S(n) + " " + what + (n == 1 ? "" : "s"); }

// The optional inputs a normalisation was planned with, where any differs from the plain
// call ("" when none does): "gamma f32, bias row, additionalOutput, dsum".
std::string NormInputsText(const NormInputs& n, const std::string& dtype) {
  std::string text;
  const auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  const char* param = ShortDTypeName(n.param_dtype);
  if (param != nullptr && dtype != param) add(std::string("gamma ") + param);
  if (n.bias != NormBias::kNone) add(std::string("bias ") + NormBiasName(n.bias));
  if (n.additional_output) add("additionalOutput");
  if (n.dsum) add("dsum");
  return text;
}

// Embedding's Atlas A2 tiling, below the host's elementwise plan of out's elements.
std::string GatherTable(const GatherTiling& t, int64_t host_cores) {
  std::ostringstream o;
  o << "-- Atlas A2 (ops-nn's tiling) --\n"
    << "kernel          " << t.kernel << " along dim 0: " << t.indices << " indices x " << t.inner
    << " elements = " << t.total << "\n"
    << "block_dim       " << t.block_dim << " = min(" << t.total << ", cores): ";
  if (t.block_dim > 1) o << t.block_dim - 1 << " x " << t.per_core << ", the last ";
  o << t.last_core << " (the plan above: " << Plural(host_cores, "core") << ")\n"
    << "per UB pass     " << t.tile_count << " elements = (UB - 8192) / (" << t.x_bytes << " + "
    << t.index_bytes << " B), down to a multiple of 32\n";
  return o.str();
}

// EmbeddingDenseBackward's Atlas A2 tiling, below the host's elementwise plan of out's elements.
std::string ScatterTable(const ScatterTiling& t, int64_t host_cores) {
  std::ostringstream o;
  o << "-- Atlas A2 (ops-nn's tiling) --\n"
    << "kernel          " << t.kernel << " (" << t.mode << (t.scale ? ", scaleGradByFreq" : "")
    << "), tiling key " << t.tiling_key << ": " << t.grad_rows << " grad rows of " << t.dim
    << " into " << t.num_weights << " rows, grad read as " << t.grad_bytes << "-byte elements\n"
    << "block_dim       " << t.block_dim << " (the plan above: " << Plural(host_cores, "core")
    << ")\n";
  if (t.mode == "small dim") {
    o << "rows per core   " << t.copy_rows << ", the last core " << t.last_core_rows
      << "; UB passes of " << t.max_rows_in_ub << " rows: " << t.copy_passes << " (last "
      << t.last_pass_rows << "), the last core " << t.last_core_passes << " (last "
      << t.last_core_last_pass_rows << ")\n";
  } else {
    o << "rows per core   " << t.former_cores << " x " << t.former_rows << ", "
      << t.block_dim - t.former_cores << " x " << t.tail_rows << " (indices sorted first)\n";
  }
  o << "row passes      " << t.dim_reps << " x " << t.dim_pass;
  if (t.dim_tail > 0) o << " + " << t.dim_tail;
  o << " elements (at most " << t.max_dim << " per pass)\n";
  if (t.scale) {
    o << "scale rows      " << t.scale_former_cores << " x " << t.scale_rows + 1 << ", "
      << t.block_dim - t.scale_former_cores << " x " << t.scale_rows << " of out's rows\n";
  }
  o << "workspace       " << t.workspace_bytes << " B\n";
  return o.str();
}

// MseLossBackward's Atlas A2 tiling, below the host's elementwise plan.
std::string LossTable(const LossTiling& t, int64_t host_cores) {
  std::ostringstream o;
  o << "-- Atlas A2 (ops-nn's tiling) --\n"
    << "kernel          " << t.kernel << ", tiling key " << t.tiling_key << ": " << t.total_length
    << " elements, " << t.bytes_per_element << " UB bytes each\n"
    << "tiles           " << t.loops << " of at most " << t.max_tile_length << " elements"
    << (t.double_buffer ? ", double buffered" : "") << "\n"
    << "block_dim       " << t.block_dim << " (the plan above: " << Plural(host_cores, "core")
    << "): " << t.full_cores << " x " << t.block_length;
  if (t.block_dim > t.full_cores) o << ", the last core " << t.pad_length;
  o << "; " << t.tile_num << (t.tile_num == 1 ? " tile" : " tiles") << " per core\n";
  return o.str();
}

// CrossEntropyLoss's (its gradient's) Atlas A2 tiling, below the host's elementwise plan.
std::string SoftmaxLossTable(const SoftmaxLossTiling& t, const SoftmaxLossInputs& in,
                             int64_t host_cores) {
  std::ostringstream o;
  o << "-- Atlas A2 (ops-nn's tiling) --\n"
    << "kernel          " << t.kernel << ", tiling key " << t.tiling_key
    << (in.weight ? ", weight" : ", no weight")
    << (t.kernel == "CrossEntropyLoss" ? (in.smoothing ? ", label smoothing" : "")
                                       : std::string(", reduction ") + S(in.reduction))
    << "\n"
    << "block_dim       " << t.block_dim << " (the plan above: " << Plural(host_cores, "core")
    << "): " << t.front_cores << " x " << Plural(t.front_rows, "row");
  if (t.tail_cores > 0) o << ", " << t.tail_cores << " x " << Plural(t.tail_rows, "row");
  o << "\n";
  if (t.kernel == "CrossEntropyLoss") {
    o << "row passes      " << t.ub_loops << " x " << t.input_ub_size << " + " << t.ub_tail
      << " (vector repeats " << t.vec_loops << " + " << t.vec_tail << ", the tail's "
      << t.tail_vec_loops << " + " << t.tail_vec_tail << ")\n"
      << "UB              " << t.total_buf_bytes << " B: rows 3 x " << t.row_buf_bytes << ", casts "
      << t.cast_buf_bytes << ", smoothing weights " << t.smoothing_weight_bytes << "\n";
  } else {
    o << "column passes   " << t.col_loops << " x " << t.col_tile << " + " << t.col_tail << "\n"
      << "UB              " << t.row_buf_bytes << " B of per-row buffers, the rest column passes\n";
  }
  o << "workspace       " << t.workspace_bytes << " B\n";
  return o.str();
}

// A normalisation's Atlas A2 tiling, below the host's reduction plan.
std::string NormTable(const NormTiling& t, int64_t host_cores) {
  std::ostringstream o;
  o << "-- Atlas A2 (ops-nn's tiling) --\n"
    << "kernel          " << t.kernel << ", template " << t.tmpl << ", tiling key " << t.tiling_key
    << "\n"
    << Wrap("why             ", t.why)
    << (t.passed_over.empty() ? "" : Wrap("passed over     ", t.passed_over, 16, "; "))
    << "rows            " << t.rows << " rows of " << t.cols << "\n"
    << "block_dim       " << t.block_dim << ": " << t.former_cores << " x " << t.rows_per_core
    << (t.rows_per_core == 1 ? " row" : " rows");
  if (t.former_cores < t.block_dim) {
    o << ", " << t.block_dim - t.former_cores << " x " << t.tail_rows;
  }
  if (t.leftover_rows > 0) o << ", then " << t.leftover_rows << " more";
  if (t.launched_cores > t.block_dim) o << "; " << t.launched_cores << " launched";
  o << " (the host: " << Plural(host_cores, "core") << ")\n"
    << "per UB pass     " << (t.rows_per_loop > 1 ? "up to " : "") << Plural(t.rows_per_loop, "row")
    << "\n"
    << "row split       "
    << (t.col_chunks == 1 ? "none: whole rows in the UB"
                          : S(t.col_chunks) + " chunks of " + S(t.col_chunk) + " elements")
    << "\n"
    << Wrap("statistics      ", t.stats) << Wrap("UB              ", t.ub_note);
  return o.str();
}

}  // namespace

std::string Plan::ToJson() const {
  Json o;
  o["op"] = op;
  o["dtype"] = dtype;
  o["shape"] = shape;
  if (kind == Kind::kReduction || IsSplitOp(op)) o["dim"] = dim;
  if (!NormInputsText(norm_inputs, dtype).empty()) {
    const char* param = ShortDTypeName(norm_inputs.param_dtype);
    o["norm_inputs"] = {{"param_dtype", param != nullptr ? param : dtype.c_str()},
                        {"bias", NormBiasName(norm_inputs.bias)},
                        {"additional_output", norm_inputs.additional_output},
                        {"dsum", norm_inputs.dsum}};
  }
  o["platform"] = {{"name", platform.name},
                   {"cores", platform.cores},
                   {"ub_bytes", platform.ub_bytes},
                   {"block_bytes", platform.block_bytes},
                   {"vector_bytes", platform.vector_bytes}};
  o["min_elems_per_core"] = min_elems_per_core;
  o["stream_min_bytes"] = stream_min_bytes;
  o["sources"] = sources;
  if (kind == Kind::kElementwise) {
    const ElementwisePlan& p = elementwise;
    o["kind"] = "elementwise";
    o["n"] = p.n;
    o["elem_bytes"] = p.elem_bytes;
    o["block_elems"] = p.block_elems;
    o["blocks"] = p.blocks;
    o["block_dim"] = p.block_dim;
    o["blocks_per_core"] = p.blocks_per_core;
    o["big_cores"] = p.big_cores;
    o["big_core_elems"] = (p.blocks_per_core + 1) * p.block_elems;
    o["small_core_elems"] = p.blocks_per_core * p.block_elems;
    o["last_core_elems"] = p.CoreLen(p.block_dim - 1);
    o["tile_len"] = p.tile_len;
    o["buffer_num"] = p.buffer_num;
    o["buffer_why"] = p.buffer_why;
    o["ub_divisor"] = p.ub_divisor;
    o["ub_divisor_why"] = p.ub_divisor_why;
    o["ub_used_bytes"] = UbTotal(p.ub);
    o["ub"] = UbJson(p.ub);
    if (channel_sums.units > 0) {
      const ChannelSumsPlan& c = channel_sums;
      o["channel_sums"] = {{"rows", c.rows},           {"row_len", c.row_len},
                           {"channels", c.channels},   {"segment", kChannelSumSegment},
                           {"segs_per_row", c.segs_per_row}, {"rows_per_unit", c.rows_per_unit},
                           {"units", c.units},         {"block_dim", c.block_dim}};
    }
    if (index_dtype != DType::kUndefined) o["index_dtype"] = ShortDTypeName(index_dtype);
    if (weight_rows > 0) o["weight_rows"] = weight_rows;
    if (!scatter.planned && !scatter.why.empty()) {
      o["scatter"] = {{"kernel", scatter.kernel}, {"planned", false}, {"why", scatter.why}};
    }
    if (!loss.planned && !loss.why.empty()) {
      o["loss"] = {{"kernel", loss.kernel}, {"planned", false}, {"why", loss.why}};
    }
    if (loss.planned) {
      const LossTiling& t = loss;
      o["loss"] = {{"kernel", t.kernel},
                   {"tiling_key", t.tiling_key},
                   {"total_length", t.total_length},
                   {"bytes_per_element", t.bytes_per_element},
                   {"max_tile_length", t.max_tile_length},
                   {"loops", t.loops},
                   {"block_dim", t.block_dim},
                   {"full_cores", t.full_cores},
                   {"block_length", t.block_length},
                   {"pad_length", t.pad_length},
                   {"tile_num", t.tile_num},
                   {"double_buffer", t.double_buffer}};
    }
    if (!softmax_loss.planned && !softmax_loss.why.empty()) {
      o["softmax_loss"] = {
          {"kernel", softmax_loss.kernel}, {"planned", false}, {"why", softmax_loss.why}};
    }
    if (softmax_loss.planned) {
      const SoftmaxLossTiling& t = softmax_loss;
      o["softmax_loss"] = {{"kernel", t.kernel},
                           {"tiling_key", t.tiling_key},
                           {"weight", softmax_loss_inputs.weight},
                           {"label_smoothing", softmax_loss_inputs.smoothing},
                           {"reduction", softmax_loss_inputs.reduction},
                           {"block_dim", t.block_dim},
                           {"front_cores", t.front_cores},
                           {"front_rows", t.front_rows},
                           {"tail_cores", t.tail_cores},
                           {"tail_rows", t.tail_rows},
                           {"row_buf_bytes", t.row_buf_bytes},
                           {"input_ub_size", t.input_ub_size},
                           {"cast_buf_bytes", t.cast_buf_bytes},
                           {"smoothing_weight_bytes", t.smoothing_weight_bytes},
                           {"total_buf_bytes", t.total_buf_bytes},
                           {"ub_loops", t.ub_loops},
                           {"ub_tail", t.ub_tail},
                           {"vec_loops", t.vec_loops},
                           {"vec_tail", t.vec_tail},
                           {"tail_vec_loops", t.tail_vec_loops},
                           {"tail_vec_tail", t.tail_vec_tail},
                           {"col_tile", t.col_tile},
                           {"col_loops", t.col_loops},
                           {"col_tail", t.col_tail},
                           {"workspace_bytes", t.workspace_bytes}};
    }
    if (scatter.planned) {
      const ScatterTiling& t = scatter;
      o["scatter"] = {{"kernel", t.kernel},
                      {"mode", t.mode},
                      {"tiling_key", t.tiling_key},
                      {"grad_rows", t.grad_rows},
                      {"dim", t.dim},
                      {"num_weights", t.num_weights},
                      {"scale", t.scale},
                      {"grad_bytes", t.grad_bytes},
                      {"block_dim", t.block_dim},
                      {"max_dim", t.max_dim},
                      {"dim_pass", t.dim_pass},
                      {"dim_reps", t.dim_reps},
                      {"dim_tail", t.dim_tail},
                      {"former_rows", t.former_rows},
                      {"tail_rows", t.tail_rows},
                      {"former_cores", t.former_cores},
                      {"copy_rows", t.copy_rows},
                      {"last_core_rows", t.last_core_rows},
                      {"max_rows_in_ub", t.max_rows_in_ub},
                      {"copy_passes", t.copy_passes},
                      {"last_core_passes", t.last_core_passes},
                      {"last_pass_rows", t.last_pass_rows},
                      {"last_core_last_pass_rows", t.last_core_last_pass_rows},
                      {"scale_rows", t.scale_rows},
                      {"scale_former_cores", t.scale_former_cores},
                      {"workspace_bytes", t.workspace_bytes}};
    }
    if (gather.planned) {
      const GatherTiling& t = gather;
      o["gather"] = {{"kernel", t.kernel},       {"indices", t.indices},
                     {"inner", t.inner},         {"total", t.total},
                     {"x_bytes", t.x_bytes},     {"index_bytes", t.index_bytes},
                     {"block_dim", t.block_dim}, {"per_core", t.per_core},
                     {"last_core", t.last_core}, {"tile_count", t.tile_count}};
    }
    return WriteJson(o);
  }
  const ReductionPlan& p = reduction;
  o["kind"] = "reduction";
  o["a1"] = p.a1;
  o["r"] = p.r;
  o["a0"] = p.a0;
  o["elem_bytes"] = p.elem_bytes;
  o["template"] = TemplateName(p.tmpl);
  o["priority"] = TemplatePriority(p.tmpl);
  o["reason"] = p.reason;
  Json trials = Json::array();
  for (const TemplateTrial& t : p.trials) {
    trials.push_back({{"template", TemplateName(t.tmpl)},
                      {"priority", TemplatePriority(t.tmpl)},
                      {"capable", t.capable},
                      {"why", t.why}});
  }
  o["trials"] = std::move(trials);
  o["a1_tile"] = p.a1_tile;
  o["a0_tile"] = p.a0_tile;
  o["a0_align"] = p.a0_align;
  o["r_chunk"] = p.r_chunk;
  o["r_chunks"] = p.RChunks();
  o["r_align"] = p.r_align;
  o["units"] = p.units;
  o["units_per_core"] = p.units_per_core;
  o["block_dim"] = p.block_dim;
  o["units_per_tile"] = p.units_per_tile;
  o["output_by_rows"] = p.output_by_rows;
  o["ub_used_bytes"] = UbTotal(p.ub);
  o["ub"] = UbJson(p.ub);
  if (norm.planned) {
    const NormTiling& t = norm;
    o["norm"] = {{"kernel", t.kernel},
                 {"template", t.tmpl},
                 {"tiling_key", t.tiling_key},
                 {"why", t.why},
                 {"passed_over", t.passed_over},
                 {"rows", t.rows},
                 {"cols", t.cols},
                 {"block_dim", t.block_dim},
                 {"launched_cores", t.launched_cores},
                 {"rows_per_core", t.rows_per_core},
                 {"former_cores", t.former_cores},
                 {"tail_rows", t.tail_rows},
                 {"leftover_rows", t.leftover_rows},
                 {"rows_per_loop", t.rows_per_loop},
                 {"col_chunk", t.col_chunk},
                 {"col_chunks", t.col_chunks},
                 {"welford", t.welford},
                 {"stats", t.stats},
                 {"ub_note", t.ub_note}};
  } else if (!norm.kernel.empty()) {  // A2 runs a kernel whose tiling ops-nn does not publish
    o["norm"] = {{"kernel", norm.kernel}, {"planned", false}, {"why", norm.why}};
  }
  return WriteJson(o, {"trials"});
}

std::string Plan::ToTable() const {
  std::ostringstream o;
  o << "op              " << op << " (" << dtype << "), shape " << ShapeText(shape);
  if (kind == Kind::kReduction) o << ", dim " << dim;
  if (IsSplitOp(op)) o << ", split along dim " << dim << " into halves";
  if (weight_rows > 0) {
    o << " (grad's [rows, D]) into " << weight_rows << " rows";
  } else if (index_dtype != DType::kUndefined) {
    o << " (out's [indices, row length]), " << ShortDTypeName(index_dtype) << " indices";
  }
  const std::string inputs = NormInputsText(norm_inputs, dtype);
  if (!inputs.empty()) o << "\ninputs          " << inputs;
  o << "\nplatform        " << platform.name << ": " << Plural(platform.cores, "core") << ", UB "
    << platform.ub_bytes << " B, blocks of " << platform.block_bytes << " B, vectors of "
    << platform.vector_bytes << " B\n"
    << Wrap("knobs           ", sources, 16, "; ");
  if (kind == Kind::kElementwise) {
    const ElementwisePlan& p = elementwise;
    const int64_t small = p.block_dim - p.big_cores;
    o << "elements        " << p.n
      << (IsSplitOp(op)     ? " (each half's)"
          : weight_rows > 0 ? " (out's)"
                            : "")
      << " in " << p.blocks << " blocks of " << p.block_elems << "\n"
      << "block_dim       " << p.block_dim << " = max(1, min(" << platform.cores << " cores, ceil("
      << p.n << " / " << min_elems_per_core << ") = " << CeilDiv(p.n, min_elems_per_core) << ", "
      << p.blocks << " blocks))\n"
      << "per core        ";
    if (p.big_cores > 0) {
      o << p.big_cores << " x " << p.blocks_per_core + 1 << " blocks ("
        << (p.blocks_per_core + 1) * p.block_elems << " elements), ";
    }
    o << small << " x " << p.blocks_per_core << " blocks (" << p.blocks_per_core * p.block_elems
      << " elements)";
    const int64_t last = p.CoreLen(p.block_dim - 1);
    const int64_t last_full =
        (p.big_cores == p.block_dim ? p.blocks_per_core + 1 : p.blocks_per_core) * p.block_elems;
    if (last != last_full) o << "; the last core clipped to " << last;
    o << "\ntile_len        " << p.tile_len << " elements = floor(" << platform.ub_bytes << " / "
      << platform.block_bytes << " / " << p.ub_divisor << ") * " << platform.block_bytes << " / "
      << p.elem_bytes << "\n"
      << "buffering       " << (p.buffer_num == 2 ? "double: " : "single: ") << p.buffer_why << "\n"
      << "UB divisor      " << p.ub_divisor_why << "\n"
      << "tiles           core 0: " << p.CoreTiles(0);
    if (p.block_dim > 1) {  // one core is both the first and the last
      o << ", core " << p.block_dim - 1 << ": " << p.CoreTiles(p.block_dim - 1);
    }
    o << " (last tile " << p.TileLen(p.block_dim - 1, p.CoreTiles(p.block_dim - 1) - 1) << ")\n"
      << Wrap("UB              ",
              S(UbTotal(p.ub)) + " of " + S(platform.ub_bytes) + " B: " + UbText(p.ub), 16, ", ");
    if (channel_sums.units > 0) {  // PreluBackward's gradWeight
      const ChannelSumsPlan& c = channel_sums;
      o << "channel sums    " << c.rows << " rows (n, c) of " << c.row_len << ", " << c.channels
        << (c.channels == 1 ? " channel" : " channels") << "; segments of " << kChannelSumSegment
        << ": "
        << (c.row_len >= kChannelSumSegment ? S(c.segs_per_row) + " per row"
                                            : S(c.rows_per_unit) + " rows per unit")
        << "; " << c.units << " units on " << c.block_dim << " cores ("
        << c.UnitEnd(0) - c.UnitBegin(0) << " on core 0)\n";
    }
    if (gather.planned) o << GatherTable(gather, p.block_dim);
    if (scatter.planned) o << ScatterTable(scatter, p.block_dim);
    if (!scatter.planned && !scatter.why.empty()) {
      o << "-- Atlas A2 (ops-nn's tiling) --\n"
        << Wrap("kernel          ", scatter.kernel + " not planned: " + scatter.why);
    }
    if (loss.planned) o << LossTable(loss, p.block_dim);
    if (softmax_loss.planned) {
      o << SoftmaxLossTable(softmax_loss, softmax_loss_inputs, p.block_dim);
    }
    if (!softmax_loss.planned && !softmax_loss.why.empty()) {
      o << "-- Atlas A2 (ops-nn's tiling) --\n"
        << Wrap("kernel          ", softmax_loss.kernel + " not planned: " + softmax_loss.why);
    }
    if (!loss.planned && !loss.why.empty()) {
      o << "-- Atlas A2 (ops-nn's tiling) --\n"
        << Wrap("kernel          ", loss.kernel + " not planned: " + loss.why);
    }
    return o.str();
  }
  const ReductionPlan& p = reduction;
  o << "fused           (A1, R, A0) = (" << p.a1 << ", " << p.r << ", " << p.a0 << ")\n";
  for (size_t i = 0; i < p.trials.size(); ++i) {
    const TemplateTrial& t = p.trials[i];
    o << Wrap(std::string(i == 0 ? "templates       " : "                ") + TemplateName(t.tmpl) +
                  " (" + S(TemplatePriority(t.tmpl)) + "): ",
              std::string(t.capable ? "capable: " : "not capable: ") + t.why +
                  (t.tmpl == p.tmpl ? "  <- chosen" : ""),
              18);
  }
  const int64_t last_core = p.block_dim - 1;
  o << "unit            " << p.a1_tile << " x " << p.r << " x " << p.a0_tile
    << " (A1 rows x R x A0 columns";
  if (p.a0 > 1) o << ", A0 tiles multiples of " << p.a0_align;
  o << ")\n"
    << "r_chunk         " << p.r_chunk << " (" << Plural(p.RChunks(), "chunk") << " per unit)\n"
    << "units           " << p.units << " = " << p.A1Tiles() << " x " << p.A0Tiles() << ", "
    << p.units_per_core << " per core over block_dim " << p.block_dim;
  if (p.CoreLen(last_core) != p.units_per_core) {
    o << " (the last core " << p.CoreLen(last_core) << ")";
  }
  o << "\ntiles           " << Plural(p.units_per_tile, "unit")
    << " per tile; core 0: " << Plural(p.CoreTiles(0), "tile") << "\n";
  if (p.output_by_rows) {
    o << "output          by rows: the units' column statistics, then "
      << CeilDiv(p.a1 * p.r, p.block_dim) << " whole rows per core\n";
  }
  o << Wrap("UB              ",
            S(UbTotal(p.ub)) + " of " + S(platform.ub_bytes) + " B: " + UbText(p.ub), 16, ", ");
  if (norm.planned) {
    o << NormTable(norm, p.block_dim);
  } else if (!norm.kernel.empty()) {
    o << "-- Atlas A2 (ops-nn's tiling) --\n"
      << "kernel          " << norm.kernel << ": no tiling planned\n"
      << Wrap("why             ", norm.why);
  }
  return o.str();
}

}  // namespace tiling
}  // namespace hostnn
