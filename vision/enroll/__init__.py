"""Runtime enrolment of a user's own deck: pictures of its cards -> a deck profile.

numpy, OpenCV and onnxruntime only (through ``vision.recognizer``); never imports the
training or synthesis code, so it runs on the appliance.
"""

from vision.enroll.checks import EnrollReport, Issue
from vision.enroll.crops import EnrollImageError, decode_image, read_image
from vision.enroll.enroller import Enroller, probe_embedding, same_identifier
from vision.enroll.folder import FolderScan, scan_folder
from vision.enroll.library import BUILTIN, DeckLibrary
from vision.enroll.names import CardNameError, display_name, own_id, parse_label
from vision.enroll.pictures import (
    Sample,
    card_in_image,
    cards_in_image,
    picture_from_image,
    pictures_from_frame,
    pictures_in_image,
)
from vision.enroll.profile import DeckProfile, ProfileError, slugify

__all__ = [
    "BUILTIN",
    "CardNameError",
    "DeckLibrary",
    "DeckProfile",
    "EnrollImageError",
    "EnrollReport",
    "Enroller",
    "FolderScan",
    "Issue",
    "ProfileError",
    "Sample",
    "decode_image",
    "display_name",
    "own_id",
    "parse_label",
    "card_in_image",
    "cards_in_image",
    "picture_from_image",
    "pictures_from_frame",
    "pictures_in_image",
    "probe_embedding",
    "read_image",
    "same_identifier",
    "scan_folder",
    "slugify",
]
