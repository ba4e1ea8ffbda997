#pragma once
// Quantities as the messages of checks and derivations write them: "4.67 us",
// "14.5 KB", "7.6 Gb/s", "52.6 packets".
#include <string>

namespace fabric {

std::string time_text(double ps);      // ns below 1 us, us below 1 ms, then ms
std::string bytes_text(double bytes);  // B below 1 KB, then KB, MB (1024)
std::string gbps_text(double gbps);
std::string number_text(double value);  // at most 3 significant decimals

}  // namespace fabric
