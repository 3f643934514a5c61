// The same agent built as C++: ringproof's headers are usable from C++.
//   c++ agent.cpp $(pkg-config --cflags --libs ringproof) -lbpf -o agent_cxx
#include "agent.c"
