/* Preloaded (LD_PRELOAD) into the MPI jobs of the networked Slurm lab (tests/slurm-lab/up
 * --network), and only there. Why: MPICH 4.0.2 (Debian 12) over UCX 1.13's tcp transport hangs
 * in MPI_Finalize with 3 or more ranks in most runs. MPICH 4.0.2 closes every UCX endpoint with
 * ucp_disconnect_nb and flushes it *before* the PMI barrier of finalize; one rank then spins in
 * ucp_worker_progress waiting for a peer that already waits in the barrier. MPICH 4.2 moved the
 * barrier first (upstream commit d6c7cd5b64). Here ucp_disconnect_nb reports the close as done
 * at once (NULL is UCS_OK as a status pointer), so no rank waits before the barrier, and
 * ucp_worker_destroy after it tears the endpoints down. UCX's force-close mode is refused
 * ("Invalid parameter"), so that is not a way out. Seen: 38 of 38 four-rank runs finished with
 * it, 4 of 6 hung without (../../shared/SLURM-LAB.md, "Nodes with a real network between them").
 * Every message of the run has been delivered before finalize (MPI's rules), so nothing the
 * benchmarks measure passes through this function: every worker completes its communication (a
 * reply or a barrier) before it writes its result and finalizes. */
#include <ucp/api/ucp.h>

ucs_status_ptr_t ucp_disconnect_nb(ucp_ep_h ep) {
  (void)ep;
  return NULL;
}
