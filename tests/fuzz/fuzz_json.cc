// libFuzzer target for the JSON readers: the bytes are parsed as a document (tiling::ParseJson)
// and read as a platform file and as a tuning file (ProfilesFromJson, TuningEntriesFromJson: the
// readers after the file is read, uncached and without the API's edge, so an exception nlohmann
// or the readers throw ends the run as a crash). It also aborts when a refusal is not kInvalid
// with a message naming the file, when an accepted profile fails ValidatePlatform, when a parsed
// document written back (WriteJson) does not parse to the same document, or when accepted tuning
// entries written back (TuningFileJson) do not read back to the same entries.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/json_util.h"

namespace {

using hostnn::Status;
using hostnn::StatusCode;
using hostnn::tiling::Json;

constexpr char kPath[] = "fuzz.json";

void Expect(bool ok) {
  if (!ok) std::abort();
}

// A refusal: kInvalid, naming the file first.
void ExpectRefusal(const Status& s) {
  Expect(s.code() == StatusCode::kInvalid);
  Expect(s.message().rfind(std::string(kPath) + ": ", 0) == 0);
}

bool SameEntry(const hostnn::tiling::TuningEntry& a, const hostnn::tiling::TuningEntry& b) {
  return a.op == b.op && a.dtype == b.dtype && a.size_class == b.size_class &&
         a.platform == b.platform && a.num_cores == b.num_cores && a.ub_bytes == b.ub_bytes &&
         a.min_elems_per_core == b.min_elems_per_core && a.buffer_num == b.buffer_num;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace tiling = hostnn::tiling;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Json doc;
  const Status parsed = tiling::ParseJson(text, &doc);
  if (!parsed.ok()) {
    Expect(parsed.code() == StatusCode::kInvalid && !parsed.message().empty());
    return 0;
  }
  Json again;
  Expect(tiling::ParseJson(tiling::WriteJson(doc), &again).ok());
  Expect(again == doc);

  std::vector<tiling::Platform> platforms;
  const Status profiles = tiling::ProfilesFromJson(kPath, doc, &platforms);
  if (profiles.ok()) {
    Expect(!platforms.empty());
    for (size_t i = 0; i < platforms.size(); ++i) {
      Expect(tiling::ValidatePlatform(platforms[i]).ok());
      for (size_t j = 0; j < i; ++j) Expect(platforms[j].name != platforms[i].name);
    }
  } else {
    ExpectRefusal(profiles);
  }

  std::vector<tiling::TuningEntry> entries;
  const Status tuning = tiling::TuningEntriesFromJson(kPath, doc, &entries);
  if (!tuning.ok()) {
    ExpectRefusal(tuning);
    return 0;
  }
  Json written;
  Expect(tiling::ParseJson(tiling::TuningFileJson(entries), &written).ok());
  std::vector<tiling::TuningEntry> back;
  Expect(tiling::TuningEntriesFromJson(kPath, written, &back).ok());
  Expect(back.size() == entries.size());
  for (size_t i = 0; i < entries.size(); ++i) Expect(SameEntry(back[i], entries[i]));
  return 0;
}
