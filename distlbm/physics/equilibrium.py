    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
S    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
H    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
j    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
x    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
j    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
L    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
A    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
X    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Z    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
j    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
L    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
X    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
D    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
x    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
L    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
X    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Z    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
X    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Z    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
;    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
D    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
5    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
5    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
L    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
Q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
^    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
P    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
3    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
k    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
"    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
/    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
5    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
=    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
q    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
,    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
#    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
T    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
g    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
k    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
X    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
L    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
A    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
:    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
C    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
P    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
U    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
'    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
y    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
#    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
k    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
f    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
m    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
d    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
l    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
p    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
t    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
r    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
h    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
1    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
b    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
a    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
[    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
N    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
o    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
e    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
]    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
+    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
(    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
0    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
.    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
5    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
i    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
n    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
v    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
_    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
s    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
2    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
*    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
c    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
u    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
)    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
-    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
     # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
w    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.

    # Written as feq - w with feq grouped exactly as in `equilibrium`: other groupings, e.g.
    # w * (drho + rho * (...)), came out of XLA:CPU with last-bit differences between block shapes
    # (vectorised vs remainder loops), which breaks bitwise identity across decompositions.
