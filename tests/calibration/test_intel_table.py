"""Intel's published table (``OV-<version>-benchmark-data.csv``) read as ovlab's published rows.

The table itself is third-party data and not in the repository; these lines are the ResNet-50
lines of OV-2024.3 for two platforms (the figures the project already holds in
``benchmarks/data/resnet-50-ov2024.3.csv``), plus lines the reader must skip. Read in Intel's
format they must give exactly the rows the project's own CSV gives.
"""

from ovlab.sim.calibration.validation import read_rows

HEADER = ("Network model,Release,IE-Type,Platform name,Throughput-INT8,Throughput-FP16,"
          "Throughput-FP32,Value,Efficiency,Price,TDP,Sockets,Price/Socket,TDP/Socket,"
          "Latency_int8,UOM_T,UOM_V,UOM_E,UOM_L,Latency_FP16,Latency_FP32,Latency_int4,"
          "Throughput_INT4,Latency_BF16,Throughput_BF16")
LINES = [
    "begin_rec, , , ,,,,,,,,,,,,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    "resnet-50,OV-2024.3.0,core,Intel® Core™ i7-1185G7 CPU-only,224.68,,61.27,0.527,8.024,426,"
    "28,1,426,28,4.95,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    # another platform whose name starts the same: skipped
    "resnet-50,OV-2024.3.0,core,Intel® Core™ i7-1185GRE CPU-only,175.98,,46.03,0.359,11.732,490,"
    "15,1,490,15,6.39,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    # a latency without an INT8 throughput: which precision it timed is not said, skipped
    "resnet-50,OV-2024.3.0,core-iGPU,Intel® Core™ Ultra 7 processor 165H iGPU-only,,359.69,,"
    "0.000,0.000,460,28,1,460,28,2.24,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    "resnet-50,OV-2024.3.0,core-CPU+iGPU,Intel® Core™ i7-1185G7 CPU+iGPU,381.34,,121.02,0.895,"
    "13.619,426,28,1,426,28,,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    "resnet-50,OV-2024.3.0,accel,Intel® Data Center GPU Flex 170 dGPU,3596.47,2235.26,,1.798,"
    "23.976,2000,150,1,2000,150,0.78,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    "end_rec,,,,,,,,,,,,,,,,,,,,,,,,",
    # a model outside the zoo, and an LLM line in tokens/s: skipped
    "bert-base-cased,OV-2024.3.0,core,Intel® Core™ i7-1185G7 CPU-only,50.9,,18.49,0.119,1.818,"
    "426,28,1,426,28,22.7,FPS,FPS/$,FPS/TDP,msec.,,,,,,",
    "llama-2-7b-chat,OV-2024.3.0,core,Intel® Core™ i9-13900K CPU-only,8.7,4.6,,,,599,125,1,599,"
    "125,114.85,tokens/sec,tokens/sec/$,tokens/sec/TDP,msec/token,216.88,,77.38,12.9,,",
]


def _key(r):
    return (r.model, r.precision, r.preset, r.device, r.mode, r.value)


def test_intel_table_gives_the_projects_rows(tmp_path):
    path = tmp_path / "OV-2024.3-benchmark-data.csv"
    path.write_text("\n".join([HEADER, *LINES]) + "\n", encoding="utf-8")
    got = sorted(map(_key, read_rows(path)))
    lines = {("i7-1185g7", "CPU"), ("i7-1185g7", "CPU+iGPU"), ("flex-170", "dGPU"),
             ("core-ultra-7-165h", "iGPU")}
    wanted = sorted(_key(r) for r in read_rows() if (r.preset, r.device) in lines)
    assert got == wanted
    assert len(got) == 9  # CPU 3, CPU+iGPU 2, dGPU 3 (INT8, FP16 FPS, INT8 latency), iGPU 1


def test_intel_table_names_the_zoo_model(tmp_path):
    line = ("yolo_v3_tiny,OV-2024.3.0,core-NPU,Intel® Core™ Ultra 7 processor 165H NPU-only,390,"
            "286.75,,0.848,13.929,460,28,1,460,28,2.87,FPS,FPS/$,FPS/TDP,msec.,,,,,,")
    path = tmp_path / "t.csv"
    path.write_text(HEADER + "\n" + line + "\n", encoding="utf-8")
    rows = read_rows(path)
    assert {(r.model, r.precision, r.mode) for r in rows} == {
        ("yolo-v3-tiny", "INT8", "throughput"), ("yolo-v3-tiny", "INT8", "latency"),
        ("yolo-v3-tiny", "FP16", "throughput")}
    assert {(r.preset, r.device) for r in rows} == {("core-ultra-7-165h", "NPU")}
