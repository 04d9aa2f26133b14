"""Card recognition at run time: numpy, OpenCV and onnxruntime only (no torch)."""

from vision.recognizer.prototypes import PrototypeError, Prototypes, build_prototypes
from vision.recognizer.runtime import MODELS_DIR, Recognizer, RecognizerInputError, RecognizerSettings, check_frame

__all__ = [
    "MODELS_DIR",
    "PrototypeError",
    "Prototypes",
    "Recognizer",
    "RecognizerInputError",
    "RecognizerSettings",
    "build_prototypes",
    "check_frame",
]
