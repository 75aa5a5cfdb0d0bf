// The Transport over MPI, when Tandem is built with it (CMake found MPI and defines
// TANDEM_HAVE_MPI for mpi_transport.cpp alone, so that no header needs mpi.h).
#pragma once

#include <memory>

#include "mc/search/explore/transport.h"

namespace tandem::search {

// Whether this build has MPI.
bool mpiBuiltIn();
// Whether mpirun (Open MPI's, or any PMIx launcher) started this process: a process started
// alone is one rank and needs no MPI.
bool launchedByMpirun();
// MPI_Init for the life of the returned transport (MPI_COMM_WORLD), MPI_Finalize after it; null
// when built without MPI. Once per process: MPI cannot start again once it has finalised.
std::unique_ptr<Transport> openMpi();

}  // namespace tandem::search
