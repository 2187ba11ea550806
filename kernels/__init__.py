"""Pure compute for needled: NumPy reference math and the compiled kernels.

Nothing in this package reads files or talks to the network.
"""
