import Presets
