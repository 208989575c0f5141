// hostnn-tiling's help texts: the usage, each command's help, and the problem and tunable
// flags' help, which lists the operators of the operator list and the built-in profiles.
#ifndef HOSTNN_TOOLS_TILING_HELP_H_
#define HOSTNN_TOOLS_TILING_HELP_H_

#include <string>

#include "bench/cli_util.h"
#include "hostnn/tiling.h"
#include "tools/tiling/random_case.h"

namespace hostnn {
namespace tiling_tool {

inline const char kUsage[] =
    "usage: hostnn-tiling <command> [options]\n"
    "\n"
    "Print, check and tune the tiling plans of hostnn's operators.\n"
    "\n"
    "commands:\n"
    "  plan       print the plan of one problem (a table, or JSON with --json)\n"
    "  check      prove one plan, or N random ones with --sweep N\n"
    "  tune       time candidate options on this machine and keep the fastest\n"
    "  platforms  list the platform profiles\n"
    "  ub         list each elementwise operator's UB divisors\n"
    "  ops        list every operator: CANN entry points, parameters, dtype rule\n"
    "\n"
    "Run 'hostnn-tiling <command> --help' for a command's options. Exit status: 0 success,\n"
    "1 a plan could not be made or a check failed, 2 a bad command line.\n";

inline const char kPlanHelp[] =
    "usage: hostnn-tiling plan --op OP --dtype T --shape S [--dim D] [options] [--json]\n"
    "\n"
    "Prints the plan the operator would run: cores, per-core elements, tiles, the UB budget,\n"
    "and for logsoftmax_backward every template's capability test.\n"
    "\n"
    "  --json                 print the plan as JSON\n";

inline const char kCheckHelp[] =
    "usage: hostnn-tiling check --op OP --dtype T --shape S [--dim D] [options]\n"
    "       hostnn-tiling check --sweep N [--seed S]\n"
    "\n"
    "Proves a plan: every element owned by exactly one (core, tile), no tile over the UB,\n"
    "alignment to the block. --sweep checks N random (shape, dtype, dim, platform, options)\n"
    "plans instead. Exit 0 when every plan passes, 1 otherwise.\n"
    "\n"
    "  --sweep N              check N random plans\n"
    "  --seed S               the sweep's random seed (default 1)\n";

inline const char kTuneHelp[] =
    "usage: hostnn-tiling tune --op OP --dtype T --shape S [--dim D] [--platform P]\n"
    "                          [--repeats R] [--out FILE]\n"
    "\n"
    "Times candidate options (core counts, UB sizes, buffer counts around the default plan)\n"
    "on this machine: R interleaved passes over all candidates, each candidate's median\n"
    "(a progress line per pass on stderr); then re-measures the best three beside the\n"
    "default (2R passes) and prints the candidates best first. The default keeps ties, so\n"
    "the winner is never slower than the default plan.\n"
    "\n"
    "  --op, --dtype, --shape, --dim, --platform, --platform-file   as for plan\n"
    "  --repeats R            timed runs per candidate (default 15)\n"
    "  --out FILE             write the winner to this tuning file (entries for other\n"
    "                         problems are kept)\n";

inline const char kPlatformsHelp[] =
    "usage: hostnn-tiling platforms [--platform-file F]\n"
    "\n"
    "Lists the built-in profiles (and those of a platform file).\n";

inline const char kUbHelp[] =
    "usage: hostnn-tiling ub [--op OP]\n"
    "\n"
    "Lists the UB divisor N of each elementwise operator and dtype, single and double\n"
    "buffered, and how it arises from the buffers one tile holds.\n";

// The problem and tunable flags' help, from the operator list and the built-in profiles.
inline std::string ProblemHelp() {
  std::string platforms;
  for (const std::string& name : tiling::PlatformNames()) platforms += name + ", ";
  return "problem:\n"
         "  --op OP                " +
         bench::WrapList(OpNames(), 25) +
         "\n"
         "  --dtype T              f32, f16, bf16, i32, i16, i8, u8, i64 (f64: 8-byte storage;\n"
         "                         bool, c64, c128: embedding's weight)\n"
         "  --shape S              extents joined by ',' or 'x': 4194304, 1024,4096, 1024x4096,\n"
         "                         4Kx1K (K and M: powers of two); 'scalar' for a 0-d tensor\n"
         "  --dim D                a reduction's dim, or the dim a gated unit (glu, ...)\n"
         "                         splits in halves; --shape is then self's (default -1)\n"
         "  --group G              group_norm(_backward): G groups of [N, C, spatial...]\n"
         "  --param-dtype T        gamma's (and beta's) dtype where it differs: f32 beside a\n"
         "                         16-bit --dtype (layer_norm(_with_impl_mode),\n"
         "                         layer_norm_backward, rms_norm, rms_norm_grad, add_layer_norm)\n"
         "  --bias B               add_layer_norm's biasOptional: none (default), full (x1's\n"
         "                         element count) or row (one row, broadcast)\n"
         "  --additional-output    add_layer_norm: additionalOutput true (xOut written)\n"
         "  --dsum                 add_layer_norm_grad: dsumOptional given\n"
         "  --index-dtype T        embedding's indices: i32 or i64 (default); --shape is out's\n"
         "                         [indices, row length]\n"
         "  --num-weights N        embedding_dense_backward: out's rows (numWeights); --shape\n"
         "                         is grad's [rows, D]\n"
         "  --scale-grad-by-freq   embedding_dense_backward: scaleGradByFreq true\n"
         "  --weight               cross_entropy_loss(_grad): weightOptional given\n"
         "  --label-smoothing      cross_entropy_loss: labelSmoothing above 0\n"
         "  --reduction R          cross_entropy_loss_grad: none, mean (default) or sum\n"
         "platform and tunables (default: the environment, then the profile):\n"
         "  --platform P           " +
         bench::WrapList(platforms + "or a file's profile", 25) +
         "\n"
         "  --platform-file F      JSON file of user profiles (HOSTNN_PLATFORM_FILE)\n"
         "  --tuning-file F        tuning file (HOSTNN_TUNING_FILE)\n"
         "  --num-cores N          cores (HOSTNN_NUM_CORES)\n"
         "  --ub-bytes B           UB bytes per core (HOSTNN_UB_BYTES)\n"
         "  --min-elems-per-core M fewer cores for small problems (HOSTNN_MIN_ELEMS_PER_CORE)\n"
         "  --buffer-num K         1 or 2: single or double buffering (HOSTNN_BUFFER_NUM)\n";
}

}  // namespace tiling_tool
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_TILING_HELP_H_
