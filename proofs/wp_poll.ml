(* A Frama-C module that proofs/run.sh loads (-load-module): WP's job
   scheduler polls its jobs every 10 ms instead of every 50 ms.

   Frama-C 25's task server (Task.on_idle) sleeps 50 ms between two polls
   of its jobs, and a goal that goes to a prover or to the result cache
   waits for at least one poll.  With one prover job per process
   (-wp-par 1, see proofs/run.sh) that sleep is most of a replayed run:
   the 1,668 goals of core/rp_ring.c's 21 functions, every answer from the
   cache, took 165 s of wall time for 59 s of CPU in one process, and 75 s
   for 54 s with this module (70 s with a 2 ms tick: 10 ms takes nearly
   all the gain with five times fewer wakeups).  It changes when WP looks at its jobs, never
   what they are: the same goals, provers, step limits and results.  A
   Frama-C whose Task module differs does not build or load it, and the
   proofs then run without it (proofs/wp_poll.sh). *)
let () =
  Task.on_idle :=
    fun poll -> try while poll () do Unix.sleepf 0.010 done with Db.Cancel -> ()
