// Replays fuzz inputs (the committed seed corpus and every regression input) through the
// fuzz target without libFuzzer, so the ordinary test suite re-checks them on each run.

#include <dirent.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int replayed = 0;
  for (int a = 1; a < argc; ++a) {
    DIR* dir = opendir(argv[a]);
    if (dir == nullptr) {
      std::fprintf(stderr, "cannot open %s\n", argv[a]);
      return 1;
    }
    while (dirent* e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      std::ifstream f(std::string(argv[a]) + "/" + name, std::ios::binary);
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                 std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++replayed;
    }
    closedir(dir);
  }
  std::printf("replayed %d inputs: %d passed, 0 failed\n", replayed, replayed);
  return replayed > 0 ? 0 : 1;
}
