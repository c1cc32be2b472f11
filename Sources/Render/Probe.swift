import CCairo
import CPangoCairo
import CRsvg
import CFontconfig
