// Which MPI library a result came from (issue 28): the library, its version and its MPI-IO
// layer from MPI_Get_library_version's text of each library; and io's statement of hints asked
// for and not in effect.
#include <doctest/doctest.h>

#include "common/MpiLibrary.hpp"
#include "io/HintsInEffect.hpp"

using namespace pbench;

TEST_CASE("the MPI library is named from its version string") {
  auto mpich = worker::identify_mpi_library(
      "MPICH Version:      4.0.2\nMPICH Release date: Thu Apr  7 12:34:45 CDT 2022\n", "");
  CHECK(mpich.name == "MPICH");
  CHECK(mpich.version == "4.0.2");
  CHECK(mpich.io_layer == "ROMIO");
  auto ompi = worker::identify_mpi_library(
      "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", "");
  CHECK(ompi.name == "Open MPI");
  CHECK(ompi.version == "4.1.4");
  CHECK(ompi.io_layer == "OMPIO");
  CHECK(ompi.io_layer_source.find("OMPI_MCA_io unset") != std::string::npos);
  CHECK(worker::identify_mpi_library("Open MPI v4.1.4, package: x", "romio321").io_layer ==
        "ROMIO");
  CHECK(worker::identify_mpi_library("Open MPI v4.1.4, package: x", "^ompio").io_layer == "ROMIO");
  CHECK(worker::identify_mpi_library("Open MPI v4.1.4, package: x", "ompio").io_layer == "OMPIO");
  auto intel = worker::identify_mpi_library("Intel(R) MPI Library 2021.6 for Linux* OS\n", "");
  CHECK(intel.name == "Intel MPI");
  CHECK(intel.version == "2021.6");
  CHECK(intel.io_layer == "ROMIO");
  auto cray = worker::identify_mpi_library(
      "MPI VERSION    : CRAY MPICH version 8.1.23.5 (ANL base 3.4a2)\n", "");
  CHECK(cray.name == "Cray MPICH");
  CHECK(cray.version == "8.1.23.5");
  CHECK(worker::identify_mpi_library("MVAPICH2 Version      :\t2.3.7\n", "").name == "MVAPICH");
  auto other = worker::identify_mpi_library("Some MPI 1.0", "");
  CHECK(other.name == "unknown");
  CHECK(other.io_layer == "unknown");
}

TEST_CASE("a hint asked for and not in effect is stated") {
  using io::FileHints;
  FileHints reported;
  reported.file = "p2_type0";
  reported.given = {{"romio_cb_write", "enable"}, {"cb_buffer_size", "8388608"}};
  reported.effective = {{"romio_cb_write", "enable"}, {"cb_buffer_size", "16777216"}};
  auto check = io::check_hints_in_effect({reported}, "ROMIO");
  CHECK(check.not_in_effect == 1);
  REQUIRE(check.warnings.size() == 1);
  CHECK(check.warnings[0] ==
        "MPI-IO hint cb_buffer_size=8388608 asked for is not in effect: "
        "cb_buffer_size=16777216 on 1 of 1 files");
  // OMPIO: nothing reported, every hint stated, a ROMIO hint as one OMPIO ignores.
  FileHints silent = reported;
  silent.effective.clear();
  check = io::check_hints_in_effect({silent, silent}, "OMPIO");
  CHECK(check.not_in_effect == 2);
  REQUIRE(check.warnings.size() == 3);
  CHECK(check.warnings[0].find("MPI_File_get_info reported no hints on 2 of 2 files") !=
        std::string::npos);
  CHECK(check.warnings[1] ==
        "MPI-IO hint cb_buffer_size=8388608 asked for is not in effect: not reported on 2 of 2 "
        "files (MPI-IO layer OMPIO)");
  CHECK(check.warnings[2] ==
        "MPI-IO hint romio_cb_write=enable asked for is not in effect: a ROMIO hint, which Open "
        "MPI's OMPIO ignores (MPI_File_get_info does not report it on 2 of 2 files)");
  // Open MPI 4.1's OMPIO echoes back what it was given: a ROMIO hint is not in effect all the
  // same, the others are taken as reported.
  FileHints echoed = reported;
  echoed.effective = echoed.given;
  check = io::check_hints_in_effect({echoed}, "OMPIO");
  CHECK(check.not_in_effect == 1);
  REQUIRE(check.warnings.size() == 1);
  CHECK(check.warnings[0] ==
        "MPI-IO hint romio_cb_write=enable asked for is not in effect: a ROMIO hint, which Open "
        "MPI's OMPIO ignores (MPI_File_get_info echoes it back on 1 of 1 files all the same)");
  // Hints in effect as asked: nothing said.
  FileHints fine = reported;
  fine.effective = fine.given;
  CHECK(io::check_hints_in_effect({fine}, "ROMIO").warnings.empty());
  CHECK(io::check_hints_in_effect({FileHints{}}, "OMPIO").warnings.empty());
}
