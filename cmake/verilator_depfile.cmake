# Run by fabricsim_verilate (cmake/verilate.cmake) after Verilator:
# Verilator's dependency file (VERILATOR_DEPFILE, "<generated files> : <files
# it read>") as a depfile whose target is the variant's archive (TARGET).
#   cmake -DVERILATOR_DEPFILE=... -DTARGET=... -DDEPFILE=... -P verilator_depfile.cmake
file(READ ${VERILATOR_DEPFILE} rule)
string(FIND "${rule}" " : " colon)
if(colon LESS 0)
  message(FATAL_ERROR "${VERILATOR_DEPFILE}: no ' : ' between Verilator's targets and inputs")
endif()
string(SUBSTRING "${rule}" ${colon} -1 inputs)
file(WRITE ${DEPFILE} "${TARGET}${inputs}")
