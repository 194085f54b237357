"""OpenVINO GenAI on the virtual devices (``openvino_genai``)."""
