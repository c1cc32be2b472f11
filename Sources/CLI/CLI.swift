import CamStamp
