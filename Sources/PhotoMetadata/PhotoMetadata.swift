// PhotoMetadata: see Metadata.swift
