"""Training the recognizer's two networks (PyTorch; never imported by the appliance at run time)."""
