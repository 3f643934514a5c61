/* The primitives are defined in rp_prim.h (RP_INLINE): here Frama-C sees
 * their definitions once, and proves them. */
#define RP_DEFINE_PRIM
#include "rp_prim.h"
