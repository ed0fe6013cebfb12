/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_main.c: a main() for the fuzz targets in builds without libFuzzer
 * (the default, asan and tsan presets): every file named on the command
 * line, or found directly in a directory named there, is passed once to
 * LLVMFuzzerTestOneInput. CTest runs each target over its seed corpus this
 * way, so the harnesses and their oracles are exercised by every preset;
 * the fuzz preset links libFuzzer's own main instead.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0
        || (buf = malloc((size_t)len + 1)) == NULL
        || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        if (f != NULL)
            fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)len);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    long files = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "FAIL: %s does not exist\n", argv[i]);
            bad = 1;
        } else if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *de;
            while (d != NULL && (de = readdir(d)) != NULL) {
                char path[4096];
                if (de->d_name[0] == '.')
                    continue;
                snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
                if (run_file(path) < 0)
                    bad = 1;
                else
                    files++;
            }
            if (d != NULL)
                closedir(d);
        } else if (run_file(argv[i]) < 0) {
            bad = 1;
        } else {
            files++;
        }
    }
    if (files == 0) {
        fprintf(stderr, "FAIL: no input files\n");
        return 1;
    }
    printf("%ld inputs ran without a finding\n", files);
    return bad;
}
