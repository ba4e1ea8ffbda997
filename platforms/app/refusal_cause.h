#pragma once
// A refusal that names a key the user did not give (its default, or the
// study's value) when a key the user set is what broke it: --set
// leaf.packet_bytes=4096 makes E11's default leaf.ingress.lossless_pool too
// small. The refusal then names the key set as its cause too, and the
// remedy, so that every value --list-params prints as allowed is either
// accepted or refused naming it.
#include "config/config_error.h"
#include "platforms/app/command_line.h"

namespace fabric {

// `error` (from resolving `cl`), with the --set that caused it when its key
// is not one the command line set: the first --set without which the run
// resolves, or is refused for another key.
config::ConfigError with_its_cause(const CommandLine& cl, const config::ConfigError& error);

}  // namespace fabric
